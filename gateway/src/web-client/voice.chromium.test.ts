import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { chromiumPath, chromiumSuiteTitle, launchChromium } from '../testing/fakes/chromium.ts';
import { concatPcm16, encodeWav, rms } from '../voice/audio/pcm.ts';
import { createScriptedStt, type ScriptedStt } from '../voice/testing/scripted-stt.ts';
import { espeakSpeech16k, missingSpeechTools } from '../voice/testing/sox.ts';
import { buildClient, webWorkspace } from './testing/build-client.ts';
import { CLIENT_CSP } from './static-pages.ts';

/** axe-core's browser build, evaluated in the page (the CSP holds: no script tag is added). */
const AXE_SOURCE = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** axe's violations inside the voice controls, as `rule: selector — why` lines. */
async function auditVoice(page: Page): Promise<string[]> {
  if (!(await page.evaluate("typeof window.axe === 'object'")))
    await page.evaluate(await AXE_SOURCE);
  const result = await page.evaluate<{
    violations: { id: string; help: string; nodes: { target: string[] }[] }[];
  }>(
    `axe.run({ include: [['.voice']] }, { runOnly: { type: 'tag', values: ${JSON.stringify(TAGS)} } })`,
  );
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} — ${v.help}`),
  );
}

/** A page that records CSP violations and uncaught errors. */
async function openPage(context: BrowserContext, url: string) {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused/.test(message.text()))
      problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(url);
  return { page, problems };
}

/** Screenshots of the voice controls (git-ignored; look at them). */
const SHOTS = join(webWorkspace, '..', 'screenshots', 'web');
const PHONE = { width: 390, height: 844 };

const voiceState = (page: Page) => page.locator('.voice').getAttribute('data-state');
const spoken = async (page: Page) =>
  Number(await page.locator('.voice').getAttribute('data-spoken-samples'));

const missing = chromiumPath ? missingSpeechTools() : undefined;
const TRANSCRIPT = 'what should I cook tonight';

describe.skipIf(!chromiumPath || missing !== undefined)(
  chromiumSuiteTitle(
    `voice from the browser: Chromium's fake microphone plays espeak-ng speech into /ws/voice${missing ? ` (skipped: ${missing})` : ''}`,
  ),
  { timeout: 180_000 },
  () => {
    let assets: string;
    let dir: string;
    let bed: ChatTestBed;
    let bare: ChatTestBed;
    let mute: ChatTestBed;
    let stt: ScriptedStt;
    let browser: Browser;
    let context: BrowserContext;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'hearth-voice-web-'));
      // The microphone: half a second of silence, a spoken question, a second and a half of
      // silence (Chromium loops the file).
      const silence = (seconds: number) => new Int16Array(16_000 * seconds);
      const wav = join(dir, 'question.wav');
      await writeFile(
        wav,
        encodeWav({
          samples: concatPcm16([
            silence(0.5),
            espeakSpeech16k('What should I cook tonight?'),
            silence(1.5),
          ]),
          sampleRate: 16_000,
        }),
      );
      assets = await buildClient();
      stt = createScriptedStt([TRANSCRIPT]);
      bed = await startChatTestBed(undefined, { webAssetsDir: assets, voiceEngines: { stt } });
      // No STT override: Whisper has no weights in a fresh state directory.
      // It also answers to the host name voice.test (mapped to 127.0.0.1 in the browser).
      bare = await startChatTestBed(undefined, {
        webAssetsDir: assets,
        config: { gateway: { allowed_hosts: ['voice.test'] } },
      });
      // Speech-to-text but text-to-speech switched off.
      mute = await startChatTestBed(undefined, {
        webAssetsDir: assets,
        voiceEngines: { stt: createScriptedStt([TRANSCRIPT]) },
        config: { voice: { tts_engine: 'off' } },
      });
      await mkdir(SHOTS, { recursive: true });
      browser = await launchChromium(['--host-resolver-rules=MAP voice.test 127.0.0.1'], {
        fakeMicrophone: wav,
      });
      context = await browser.newContext();
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await bed?.close();
      await bare?.close();
      await mute?.close();
      if (assets) await rm(assets, { recursive: true, force: true });
      if (dir) await rm(dir, { recursive: true, force: true });
    }, 60_000);

    it('serves the capture worklet as a same-origin file under the unchanged CSP', async () => {
      const page = await fetch(`${bed.gw.url}/`);
      expect(page.headers.get('content-security-policy')).toBe(CLIENT_CSP);
      expect(page.headers.get('permissions-policy')).toContain('microphone=(self)');
      const worklet = await fetch(`${bed.gw.url}/voice-capture.js`);
      expect(worklet.status).toBe(200);
      expect(worklet.headers.get('content-type')).toMatch(/javascript/);
      expect(await worklet.text()).toContain("registerProcessor('hearth-voice-capture'");
    });

    it('push-to-talk: the microphone’s audio reaches STT, the transcript and the reply join the conversation, the reply is spoken', async () => {
      bed.fake.reset();
      bed.fake.reply({ text: 'Try a mushroom risotto. It takes thirty minutes.' });
      const { page, problems } = await openPage(context, bed.gw.url);
      await expect.poll(() => voiceState(page), { timeout: 30_000 }).toBe('ready');
      expect(await page.locator('.voice-status').innerText()).toBe(
        'Voice ready — press Push to talk, or hold Space',
      );
      expect(await auditVoice(page)).toEqual([]);

      // Every state the controls show, in order (a mutation observer in the page).
      await page.evaluate(`{
        const voice = document.querySelector('.voice');
        window.voiceStates = [voice.dataset.state];
        new MutationObserver(() => {
          if (window.voiceStates.at(-1) !== voice.dataset.state)
            window.voiceStates.push(voice.dataset.state);
        }).observe(voice, { attributes: true, attributeFilter: ['data-state'] });
      }`);
      const talk = page.getByRole('button', { name: 'Push to talk' });
      const heardBefore = stt.heard.length;
      const pressedAt = performance.now();
      await talk.click();
      await expect.poll(() => talk.getAttribute('aria-pressed')).toBe('true');
      expect(await voiceState(page)).toBe('recording');
      expect(await page.getByRole('button', { name: 'Listen continuously' }).isDisabled()).toBe(
        true,
      );
      // While recording: the level meter is there, and axe finds nothing.
      expect(await page.getByRole('meter', { name: 'Microphone level' }).count()).toBe(1);
      expect(await auditVoice(page)).toEqual([]);
      await page.screenshot({ path: join(SHOTS, 'voice-recording-desktop.png') });
      // The gateway is recording this socket's push-to-talk.
      await expect
        .poll(async () => (await bed.get('/voice/status')).body.ptt_is_recording, {
          timeout: 10_000,
        })
        .toBe(true);
      // The microphone was open before the gateway was asked to record.
      const recordingAt = performance.now();
      await page.waitForTimeout(3_000);
      const releasedAt = performance.now();
      await talk.click();
      expect(await talk.getAttribute('aria-pressed')).toBe('false');
      const seconds = (from: number) => (releasedAt - from) / 1000;

      await page.locator('.message.user', { hasText: TRANSCRIPT }).waitFor({ timeout: 30_000 });
      await page
        .locator('.message.assistant', { hasText: 'Try a mushroom risotto.' })
        .waitFor({ timeout: 30_000 });
      // What reached STT is the 16 kHz audio of the time the button was down, speech in it.
      expect(stt.heard.length).toBe(heardBefore + 1);
      const heard = stt.heard.at(-1)!;
      expect(heard.length / 16_000).toBeGreaterThan(seconds(recordingAt) - 0.3);
      expect(heard.length / 16_000).toBeLessThan(seconds(pressedAt) + 0.5);
      expect(rms(heard)).toBeGreaterThan(0.01);
      // The chat turn saw the transcript as the user's message.
      expect(JSON.stringify(bed.fake.requests.at(-1)?.body)).toContain(TRANSCRIPT);
      // The reply's speech arrived and was queued for playback (espeak-ng at 22.05 kHz: two
      // sentences are more than a second).
      await expect.poll(() => spoken(page), { timeout: 30_000 }).toBeGreaterThan(22_050);
      expect(await page.locator('.voice').getAttribute('data-spoken-replies')).toBe('1');
      await expect.poll(() => voiceState(page), { timeout: 30_000 }).toBe('ready');
      expect(await page.locator('.voice-speech-note').count()).toBe(0);
      // Ready, recording, the gateway working on it, the reply played out, ready again (and
      // never "ready" in between; processing and speaking may alternate between sentences).
      const states = await page.evaluate<string[]>('window.voiceStates');
      expect(states.slice(0, 3)).toEqual(['ready', 'recording', 'processing']);
      expect(states.at(-1)).toBe('ready');
      expect(states.slice(3, -1)).toContain('speaking');
      for (const state of states.slice(3, -1)) expect(['processing', 'speaking']).toContain(state);
      expect(problems).toEqual([]);
      await page.close();
    });

    it('continuous listening: starts, each utterance is a turn, stops', async () => {
      bed.fake.reset();
      stt.say(TRANSCRIPT);
      bed.fake.reply({ text: 'Pasta, then.' });
      // The dark theme at phone size this time (axe checks its contrast).
      const dark = await browser.newContext({ colorScheme: 'dark', viewport: PHONE });
      const { page, problems } = await openPage(dark, bed.gw.url);
      await expect.poll(() => voiceState(page), { timeout: 30_000 }).toBe('ready');
      const listen = page.getByRole('button', { name: 'Listen continuously' });
      await listen.click();
      await expect.poll(() => listen.getAttribute('aria-pressed')).toBe('true');
      expect(await page.getByRole('button', { name: 'Push to talk' }).isDisabled()).toBe(true);
      await expect
        .poll(async () => (await bed.get('/voice/status')).body.continuous_listening, {
          timeout: 10_000,
        })
        .toBe(true);
      expect(await auditVoice(page)).toEqual([]);
      await page.screenshot({ path: join(SHOTS, 'voice-listening-phone-dark.png') });
      // The looping question is cut by the VAD into a turn without any button.
      await page.locator('.message.user', { hasText: TRANSCRIPT }).waitFor({ timeout: 40_000 });
      await page
        .locator('.message.assistant', { hasText: 'Pasta, then.' })
        .waitFor({ timeout: 30_000 });
      await expect.poll(() => spoken(page), { timeout: 30_000 }).toBeGreaterThan(0);
      await listen.click();
      expect(await listen.getAttribute('aria-pressed')).toBe('false');
      await expect
        .poll(async () => (await bed.get('/voice/status')).body.continuous_listening, {
          timeout: 10_000,
        })
        .toBe(false);
      expect(problems).toEqual([]);
      await dark.close();
    });

    it('says voice is unavailable, and why, when the gateway has no speech-to-text', async () => {
      const { page, problems } = await openPage(context, bare.gw.url);
      await expect.poll(() => voiceState(page), { timeout: 30_000 }).toBe('unavailable');
      const status = await page.locator('.voice-status').innerText();
      expect(status).toMatch(/^Voice unavailable: no speech-to-text engine: /);
      // The reason is the gateway's own.
      const config = (await bare.get('/voice/config')).body as {
        engines: { stt: { available: boolean; detail: string } };
      };
      expect(config.engines.stt.available).toBe(false);
      expect(status).toContain(config.engines.stt.detail);
      // No button that does nothing: both are disabled.
      expect(await page.getByRole('button', { name: 'Push to talk' }).isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: 'Listen continuously' }).isDisabled()).toBe(
        true,
      );
      expect(await auditVoice(page)).toEqual([]);
      await page.setViewportSize(PHONE);
      await page.screenshot({ path: join(SHOTS, 'voice-unavailable-phone.png') });
      expect(problems).toEqual([]);
      await page.close();
    });

    it('says the microphone needs a secure context on plain http from another host', async () => {
      const { page, problems } = await openPage(context, `http://voice.test:${bare.gw.port}/`);
      expect(await page.evaluate('window.isSecureContext')).toBe(false);
      await expect.poll(() => voiceState(page), { timeout: 30_000 }).toBe('unavailable');
      expect(await page.locator('.voice-status').innerText()).toBe(
        'Voice unavailable: the microphone needs a secure context: open Hearth over https or on localhost',
      );
      expect(await page.getByRole('button', { name: 'Push to talk' }).isDisabled()).toBe(true);
      // The rest of the page works there too: its client id is made without crypto.randomUUID
      // (which only a secure context has).
      expect(await page.evaluate("localStorage.getItem('hearth.client_id')")).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      expect(problems).toEqual([]);
      await page.close();
    });

    it('says replies are not spoken when the gateway has no text-to-speech, and still answers', async () => {
      mute.fake.reply({ text: 'Soup.' });
      const { page, problems } = await openPage(context, mute.gw.url);
      await expect.poll(() => voiceState(page), { timeout: 30_000 }).toBe('ready');
      const note = page.locator('.voice-speech-note');
      expect(await note.innerText()).toMatch(
        /^Replies are not spoken: no text-to-speech engine \(text-to-speech is switched off/,
      );
      // Held Space is push-to-talk too (outside the composer): down records, up sends.
      const talk = page.getByRole('button', { name: 'Push to talk' });
      expect(await talk.getAttribute('aria-keyshortcuts')).toBe('Space');
      await page.getByLabel('Message').fill('draft');
      await page.getByLabel('Message').press('Space');
      expect(await voiceState(page)).toBe('ready');
      expect(await page.getByLabel('Message').inputValue()).toBe('draft ');
      await page.locator('.messages').click();
      await page.keyboard.down('Space');
      await expect.poll(() => voiceState(page)).toBe('recording');
      expect(await talk.getAttribute('aria-pressed')).toBe('true');
      await page.waitForTimeout(2_500);
      await page.keyboard.up('Space');
      expect(await talk.getAttribute('aria-pressed')).toBe('false');
      await page.locator('.message.user', { hasText: TRANSCRIPT }).waitFor({ timeout: 30_000 });
      await page.locator('.message.assistant', { hasText: 'Soup.' }).waitFor({ timeout: 30_000 });
      await expect.poll(() => voiceState(page), { timeout: 10_000 }).toBe('ready');
      expect(await spoken(page)).toBe(0);
      expect(await note.count()).toBe(1);
      expect(await auditVoice(page)).toEqual([]);
      expect(problems).toEqual([]);
      await page.close();
    });

    it('says the microphone permission was denied when the browser refuses it', async () => {
      // Without the fake permission prompt a headless browser refuses the microphone.
      const refusing = await launchChromium(['--use-fake-device-for-media-stream']);
      try {
        const { page } = await openPage(await refusing.newContext(), bed.gw.url);
        await expect.poll(() => voiceState(page), { timeout: 30_000 }).toBe('ready');
        const talk = page.getByRole('button', { name: 'Push to talk' });
        await talk.click();
        await page
          .getByRole('alert')
          .filter({ hasText: /microphone permission denied/ })
          .waitFor();
        // Nothing is recording, here or on the gateway; the state says so.
        expect(await talk.getAttribute('aria-pressed')).toBe('false');
        expect(await voiceState(page)).toMatch(/^(ready|unavailable)$/);
        expect((await bed.get('/voice/status')).body.ptt_is_recording).toBe(false);
        expect(await auditVoice(page)).toEqual([]);
      } finally {
        await refusing.close();
      }
    });
  },
);
