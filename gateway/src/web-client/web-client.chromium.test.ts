import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import {
  chromiumPath,
  chromiumSuiteTitle,
  launchChromium,
  startEgressListener,
} from '../testing/fakes/chromium.ts';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import { rawRequest } from '../testing/fakes/raw-request.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';
import { buildClient, webWorkspace } from './testing/build-client.ts';
import { CLIENT_CSP } from './static-pages.ts';
import { sessionIdFor } from '../memory/session-id.ts';

/** Screenshots of every view at desktop and phone sizes (git-ignored; look at them). */
const SHOTS = join(webWorkspace, '..', 'screenshots', 'web');
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** A page that fails the test on any CSP violation or uncaught error. */
async function openPage(browser: Browser, url: string, size = SIZES.desktop) {
  const context = await browser.newContext({ viewport: size });
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

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
}

describe.skipIf(!chromiumPath)(
  chromiumSuiteTitle('web client against a real gateway and the fake LLM'),
  { timeout: 120_000 },
  () => {
    let assets: string;
    let bed: ChatTestBed;
    let browser: Browser;
    const figures: Record<string, number> = {};

    beforeAll(async () => {
      assets = await buildClient();
      bed = await startChatTestBed(undefined, { webAssetsDir: assets });
      browser = await launchChromium();
      await mkdir(SHOTS, { recursive: true });
    }, 180_000);
    afterAll(async () => {
      await writeFile(join(SHOTS, 'figures.json'), `${JSON.stringify(figures, null, 2)}\n`);
      await browser?.close();
      await bed?.close();
      await rm(assets, { recursive: true, force: true });
    });

    it('serves the client at / with a strict CSP, no inline script, gzip and strong caching', async () => {
      const index = await fetch(`${bed.gw.url}/`, { headers: { 'accept-encoding': 'gzip' } });
      expect(index.status).toBe(200);
      expect(index.headers.get('content-security-policy')).toBe(CLIENT_CSP);
      expect(index.headers.get('cache-control')).toBe('no-cache');
      const html = await index.text();
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html).not.toMatch(/https?:\/\//);
      const assetPaths = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
      expect(assetPaths.length).toBeGreaterThanOrEqual(2);
      let gzipBytes = 0;
      for (const path of ['/', ...assetPaths]) {
        const raw = await rawRequest(bed.gw.port, path, { headers: { 'accept-encoding': 'gzip' } });
        expect(raw.status).toBe(200);
        if (path !== '/') {
          expect(raw.headers['cache-control']).toBe('public, max-age=31536000, immutable');
          expect(raw.headers['content-encoding']).toBe('gzip');
        }
        gzipBytes += Number(raw.headers['content-length'] ?? Buffer.byteLength(raw.body, 'latin1'));
      }
      figures.client_transfer_gzip_bytes = gzipBytes;
      expect((await fetch(`${bed.gw.url}/sw.js`)).headers.get('cache-control')).toBe('no-cache');
    });

    it.each([
      '/assets/../package.json',
      '/assets/%2e%2e/package.json',
      '/.env',
      '/src/main.tsx',
      '/index.html/',
    ])('answers %s with a JSON 404, never a file outside the build', async (path) => {
      const response = await rawRequest(bed.gw.port, path);
      expect(response.status).toBe(404);
      expect(JSON.parse(response.body)).toHaveProperty('detail');
    });

    it('loads, sends a message and shows the streamed reply rendered as markdown', async () => {
      bed.fake.reply({ text: 'Hello from **Hearth**, streamed in pieces.' });
      const { page, problems } = await openPage(browser, bed.gw.url);
      const message = page.getByLabel('Message');
      await expect.poll(() => page.locator('.dot.on').count(), { timeout: 20_000 }).toBe(1);
      await message.fill('hello there');
      const sentAt = performance.now();
      await message.press('Enter');
      const reply = page.locator('.message.assistant').last();
      await reply.waitFor({ timeout: 20_000 });
      figures.first_message_rendered_ms = Math.round(performance.now() - sentAt);
      await expect
        .poll(() => reply.locator('.markdown').innerText(), { timeout: 20_000 })
        .toBe('Hello from Hearth, streamed in pieces.');
      expect(await reply.locator('strong').textContent()).toBe('Hearth');
      // The persistent client id: the socket's session is this browser's `web:` session.
      const clientId = await page.evaluate("localStorage.getItem('hearth.client_id')");
      expect(clientId).toMatch(/^[0-9a-f-]{36}$/);
      const sessions = await bed.get('/sessions');
      expect(JSON.stringify(sessions.body)).toContain(sessionIdFor('web', String(clientId)));
      // A second message, the gateway warm: the figure for the note.
      bed.fake.reply({ text: 'Second reply.' });
      await message.fill('again');
      const againAt = performance.now();
      await message.press('Enter');
      await page.locator('.message.assistant', { hasText: 'Second' }).waitFor({ timeout: 20_000 });
      figures.warm_message_rendered_ms = Math.round(performance.now() - againAt);
      await page.getByLabel('Message').fill('/');
      expect(await page.getByRole('list', { name: 'Slash commands' }).isVisible()).toBe(true);
      await page.getByLabel('Message').fill('');
      expect(problems).toEqual([]);
      for (const [size, viewport] of Object.entries(SIZES)) {
        await page.setViewportSize(viewport);
        await shoot(page, `chat-${size}`);
      }
      await page.context().close();
    });

    it('shows the approval in chat, lists it with its countdown, and approving runs the command', async () => {
      bed.fake.reset();
      bed.fake.reply(
        { toolCalls: [{ name: 'shell', arguments: { command: 'echo hearth-approved' } }] },
        { text: 'It printed hearth-approved.' },
      );
      const { page, problems } = await openPage(browser, bed.gw.url);
      await expect.poll(() => page.locator('.dot.on').count(), { timeout: 20_000 }).toBe(1);
      await page.getByLabel('Message').fill('please run echo');
      await page.getByLabel('Message').press('Enter');
      await page
        .locator('.message.approval', { hasText: 'echo hearth-approved' })
        .waitFor({ timeout: 20_000 });
      await page.getByRole('link', { name: /Approvals/ }).click();
      // The Approvals view's card (the chat's own approval may still be drawn while it loads).
      const card = page.locator('.card.approval', { hasText: 'echo hearth-approved' });
      await card.waitFor();
      // Counting down from 120 s (a loaded machine may take a while to get here).
      expect(await card.innerText()).toMatch(/\b\d{1,3} s left/);
      for (const [size, viewport] of Object.entries(SIZES)) {
        await page.setViewportSize(viewport);
        await shoot(page, `approvals-${size}`);
      }
      await page.setViewportSize(SIZES.desktop);
      await card.getByRole('button', { name: 'Approve', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Approved' }).waitFor();
      await page.getByRole('link', { name: 'Chat' }).click();
      // Decided in the Approvals tab: the approval in the conversation shows the outcome.
      await page
        .locator('.message.approval .outcome', { hasText: 'Approved' })
        .waitFor({ timeout: 20_000 });
      await page
        .locator('.message.assistant', { hasText: 'It printed hearth-approved.' })
        .waitFor({ timeout: 20_000 });
      // The command ran: its output went back to the model.
      const results = INSPECTORS['openai-chat']
        .toolResults(bed.fake.requests[1]!)
        .map((r) => r.output);
      expect(results).toEqual(['exit code 0\nstdout:\nhearth-approved\n']);
      expect(problems).toEqual([]);
      await page.context().close();
    });

    it('fetches nothing a reply names: images become links showing their address, links stay links', async () => {
      const listener = await startEgressListener();
      const at = listener.origin;
      bed.fake.reply({
        text: [
          `Look ![tracking pixel](${at}/pixel.png) here.`,
          `Bare ${at}/bare and auto <${at}/auto> and [named](${at}/named).`,
          `<img src="${at}/raw.png" alt="raw"> <video src="${at}/v.mp4" poster="${at}/poster.png" autoplay></video>`,
          `<table background="${at}/bg.png"><tr><td>t</td></tr></table> <svg><image href="${at}/svg.png"></image></svg>`,
          `<picture><source srcset="${at}/srcset.png"><img src="${at}/pic.png" alt="pic"></picture>`,
        ].join('\n\n'),
      });
      const { page, problems } = await openPage(browser, bed.gw.url);
      await expect.poll(() => page.locator('.dot.on').count(), { timeout: 20_000 }).toBe(1);
      await page.getByLabel('Message').fill('show me');
      await page.getByLabel('Message').press('Enter');
      const reply = page.locator('.message.assistant').last();
      await reply.locator('a.image-link').first().waitFor({ timeout: 20_000 });
      const pixel = reply.getByRole('link', { name: `Image: tracking pixel (${at}/pixel.png)` });
      expect(await pixel.getAttribute('href')).toBe(`${at}/pixel.png`);
      expect(await reply.getByRole('link', { name: `${at}/bare` }).count()).toBe(1);
      expect(
        await reply.locator('img, video, audio, picture, source, image, [background]').count(),
      ).toBe(0);
      await page.waitForTimeout(2_500);
      expect(listener.seen).toEqual([]);
      expect(listener.connections).toEqual([]);
      // Nothing was even attempted: the page's CSP refused nothing.
      expect(problems).toEqual([]);
      await page.context().close();
      await listener.close();
    });

    it('resolves no host name a reply names (Chromium net log), while a page that loads one does', async () => {
      // A host name can carry data to its DNS server with no connection at all: Chromium must
      // not look up the names in a reply (no DNS prefetch of links, no image).
      const dir = await mkdtemp(join(tmpdir(), 'hearth-netlog-'));
      const netLog = join(dir, 'net-log.json');
      const tag = randomUUID().slice(0, 8);
      const named = [`reply-link-${tag}.invalid`, `reply-image-${tag}.invalid`];
      const control = `control-${tag}.invalid`;
      const logged = await launchChromium([
        `--log-net-log=${netLog}`,
        '--net-log-capture-mode=Everything',
      ]);
      try {
        bed.fake.reply({
          text: `See http://${named[0]}/page and ![x](http://${named[1]}/pixel.png).`,
        });
        const { page, problems } = await openPage(logged, bed.gw.url);
        await expect.poll(() => page.locator('.dot.on').count(), { timeout: 20_000 }).toBe(1);
        await page.getByLabel('Message').fill('links please');
        await page.getByLabel('Message').press('Enter');
        const reply = page.locator('.message.assistant').last();
        await reply.locator('a.image-link').waitFor({ timeout: 20_000 });
        await page.waitForTimeout(2_000);
        expect(problems).toEqual([]);
        // The control: a page that does load a name, so the log is seen to record lookups.
        const other = await page.context().newPage();
        await other.goto(`http://${control}/`).catch(() => undefined);
        await logged.close();
        const log = await readFile(netLog, 'utf8');
        expect(log).toContain(control);
        for (const name of named) expect(log).not.toContain(name);
      } finally {
        await logged.close();
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('renders markdown, html (sandboxed), chart, image and code blocks live on the canvas', async () => {
      await bed.post('/canvas/render', { type: 'markdown', content: '## Weekly plan\n\n- rest' });
      const { page, problems } = await openPage(browser, `${bed.gw.url}/#canvas`);
      await page.getByRole('heading', { name: 'Weekly plan' }).waitFor();
      // Added while the page is open: arrives over /ws/canvas.
      await bed.post('/canvas/render', {
        type: 'html',
        content:
          '<p id="t">static</p><script>document.getElementById("t").textContent = "scripted"</script>',
      });
      await bed.post('/canvas/render', {
        type: 'chart',
        content: { type: 'bar', labels: ['Mon', 'Tue', 'Wed'], values: [3, 5, 2] },
      });
      await bed.post('/canvas/render', { type: 'image', content: PNG });
      await bed.post('/canvas/render', {
        type: 'code',
        content: 'print("hi")',
        language: 'python',
      });
      const frame = page.locator('iframe.html-block');
      await frame.waitFor();
      // No flag: the block renders but runs no script (Hearth issue #27: WebRTC).
      expect(await frame.getAttribute('sandbox')).toBe('');
      await expect
        .poll(() => page.frameLocator('iframe.html-block').locator('#t').textContent(), {
          timeout: 15_000,
        })
        .toBe('static');
      expect(await page.getByRole('img', { name: /Chart: Mon 3, Tue 5, Wed 2/ }).count()).toBe(1);
      expect(await page.getByRole('img', { name: 'Canvas image' }).count()).toBe(1);
      expect(await page.locator('code[data-language="python"]').textContent()).toBe('print("hi")');
      expect(problems).toEqual([]);
      for (const [size, viewport] of Object.entries(SIZES)) {
        await page.setViewportSize(viewport);
        await shoot(page, `canvas-${size}`);
      }
      await fetch(`${bed.gw.url}/api/v1/canvas/clear`, { method: 'DELETE' });
      await page.getByText('0 blocks').waitFor();
      await page.context().close();
    });

    it('warns at the top of Status while security = "full" leaves every command ungated', async () => {
      const { page, problems } = await openPage(browser, `${bed.gw.url}/#status`);
      await page.getByRole('row', { name: /untrusted_content prompt/ }).waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);
      await fetch(`${bed.gw.url}/api/v1/approvals/policy`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ security: 'full' }),
      });
      try {
        const alert = page.getByRole('alert').filter({ hasText: 'Approvals are off' });
        await alert.waitFor({ timeout: 15_000 });
        expect(await alert.textContent()).toMatch(/every command runs without asking/);
      } finally {
        await fetch(`${bed.gw.url}/api/v1/approvals/policy`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ security: 'allowlist' }),
        });
      }
      expect(problems).toEqual([]);
      await page.context().close();
    });

    it('shows status and usage, memory search with forget preview, and settings with write-only keys', async () => {
      const { page, problems } = await openPage(browser, `${bed.gw.url}/#status`);
      await page.getByRole('row', { name: /canvas in-process/ }).waitFor();
      await page.getByRole('row', { name: /gpt-4o/ }).waitFor();
      for (const [size, viewport] of Object.entries(SIZES)) {
        await page.setViewportSize(viewport);
        await shoot(page, `status-${size}`);
      }
      await page.setViewportSize(SIZES.desktop);
      await page.getByRole('link', { name: 'Memory' }).click();
      await page.getByLabel('Search memories').fill('hello');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('status').filter({ hasText: /found/ }).waitFor();
      const forget = page.getByRole('button', { name: 'Forget…' }).first();
      if ((await forget.count()) > 0) {
        await forget.click();
        await page.getByRole('alertdialog').waitFor();
      }
      for (const [size, viewport] of Object.entries(SIZES)) {
        await page.setViewportSize(viewport);
        await shoot(page, `memory-${size}`);
      }
      await page.setViewportSize(SIZES.desktop);
      await page.getByRole('link', { name: 'Settings' }).click();
      const anthropic = page.getByLabel('anthropic');
      await expect.poll(() => anthropic.getAttribute('placeholder')).toBe('set — type to replace');
      expect(await anthropic.inputValue()).toBe('');
      expect(await anthropic.getAttribute('type')).toBe('password');
      for (const [size, viewport] of Object.entries(SIZES)) {
        await page.setViewportSize(viewport);
        await shoot(page, `settings-${size}`);
      }
      expect(problems).toEqual([]);
      await page.context().close();
    });
  },
);

describe.skipIf(!chromiumPath)(
  chromiumSuiteTitle('web client with an API key'),
  { timeout: 120_000 },
  () => {
    const key = 'web-client-key-123';
    let assets: string;
    let gw: TestGateway;
    let browser: Browser;
    beforeAll(async () => {
      assets = await buildClient();
      // A provider key, so a model can answer and the page opens on the chat (not the set-up).
      gw = await startTestGateway({
        config: { gateway: { api_key: key }, models: { anthropic_api_key: 'sk-ant-test' } },
        webAssetsDir: assets,
      });
      await gw.gateway.whenReady();
      browser = await launchChromium();
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await gw?.close();
      await rm(assets, { recursive: true, force: true });
    });

    it('asks for the key once, keeps it in session storage only, and uses it on requests and sockets', async () => {
      const { page, problems } = await openPage(browser, gw.url);
      const field = page.getByLabel('API key');
      await field.waitFor();
      await shoot(page, 'key-desktop');
      await field.fill('wrong key');
      await page.getByRole('button', { name: 'Unlock' }).click();
      await page.getByRole('alert').filter({ hasText: 'not accepted' }).waitFor();
      await page.getByLabel('API key').fill(key);
      await page.getByRole('button', { name: 'Unlock' }).click();
      // The chat socket connected with the key subprotocol, the status call with the header.
      await expect.poll(() => page.locator('.dot.on').count(), { timeout: 20_000 }).toBe(1);
      expect(await page.evaluate("sessionStorage.getItem('hearth.api_key')")).toBe(key);
      expect(await page.evaluate('JSON.stringify(localStorage)')).not.toContain(key);
      await page.getByRole('link', { name: 'Canvas' }).click();
      await page.getByText(/^live ·/).waitFor();
      // A reload in the same tab does not ask again.
      await page.reload();
      await page.getByText(/^live ·/).waitFor();
      expect(await page.getByLabel('API key').count()).toBe(0);
      expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
      await page.context().close();
    });
  },
);
