import { execFileSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  startChatTestBed,
  type ChatTestBed,
} from '../../../../gateway/src/testing/gateway/chat-gateway.ts';
import { createScriptedStt } from '../../../../gateway/src/voice/testing/scripted-stt.ts';
import { missingSpeechTools, soxStat } from '../../../../gateway/src/voice/testing/sox.ts';
import { createHarness, type Harness } from '../../testing/cli-harness.ts';

// Real speech engines on a shared, loaded machine: generous bounds.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const missing = missingSpeechTools();

describe.skipIf(missing !== undefined)(
  `hearth voice against a running gateway (STT double, espeak-ng)${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    let bed: ChatTestBed;
    let h: Harness;
    const stt = createScriptedStt(['is the oven on']);
    beforeAll(async () => {
      bed = await startChatTestBed(undefined, { voiceEngines: { stt } });
    });
    afterAll(() => bed.close());
    beforeEach(async () => {
      h = await createHarness();
      bed.fake.reset();
      await writeFile(join(h.home, 'config.toml'), `[gateway]\nport = ${bed.gw.port}\n`);
    });
    afterEach(() => h.cleanup());

    /** A 22,050 Hz stereo WAV of speech (resampled to 16 kHz mono by the CLI). */
    function speechWav(text: string): string {
      const raw = join(h.home, 'raw.wav');
      const file = join(h.home, 'question.wav');
      execFileSync('espeak-ng', ['-w', raw, text]);
      execFileSync('sox', [raw, '-c', '2', file]);
      return file;
    }

    it('listen --file speaks a WAV file and prints the transcript and the streamed reply', async () => {
      bed.fake.reply({ text: 'No, the oven is off.' });
      const out = join(h.home, 'reply.wav');
      const result = await h.run([
        'voice',
        'listen',
        '--file',
        speechWav('Is the oven on?'),
        '--out',
        out,
      ]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(
        /^You said: is the oven on\nNo, the oven is off\.\nReply audio: \d+\.\d s in /,
      );
      const stat = soxStat(await readFile(out));
      expect(stat.seconds).toBeGreaterThan(0.8);
      expect(stat.rmsAmplitude).toBeGreaterThan(0.01);
    });

    it('wake --file waits for the wake word, answers the next utterance, then stops', async () => {
      const wake = join(h.home, 'wake.wav');
      const question = join(h.home, 'question.wav');
      const file = join(h.home, 'both.wav');
      execFileSync('espeak-ng', ['-w', wake, 'Hey Hearth.']);
      execFileSync('espeak-ng', ['-w', question, 'Is the oven on?']);
      // The wake word, a second of silence, the question.
      execFileSync('sox', [wake, join(h.home, 'wake-padded.wav'), 'pad', '0', '1']);
      execFileSync('sox', [join(h.home, 'wake-padded.wav'), question, file]);
      stt.say('hey hearth');
      bed.fake.reply({ text: 'The oven is off.' });
      const result = await h.run(['voice', 'wake', '--file', file]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('You said: is the oven on\nThe oven is off.\n');
    });

    it('listen --json prints the turn as JSON', async () => {
      bed.fake.reply({ text: 'Off.' });
      const result = await h.run([
        'voice',
        'listen',
        '--file',
        speechWav('Is the oven on?'),
        '--json',
      ]);
      expect(result.code).toBe(0);
      const body = JSON.parse(result.stdout) as Record<string, unknown>;
      expect(body).toMatchObject({ transcript: 'is the oven on', response: 'Off.' });
      expect(body.audio_seconds).toBeGreaterThan(0.2);
    });

    it('listen --file with a file that is not a WAV exits 1 with the reason', async () => {
      const bad = join(h.home, 'not.wav');
      await writeFile(bad, 'hello');
      const result = await h.run(['voice', 'listen', '--file', bad]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/not a WAV file/);
    });

    it('listen without --file on a machine without a microphone says so and suggests --file', async () => {
      const result = await h.run(['voice', 'listen'], {}, ['\n']);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/no microphone .*use --file/);
    });
  },
);

describe('hearth voice clone and models', () => {
  let h: Harness;
  beforeEach(async () => void (h = await createHarness()));
  afterEach(() => h.cleanup());

  it('clone says at once that no installed engine can clone, and stores nothing', async () => {
    const sample = join(h.home, 'me.wav');
    await writeFile(sample, Buffer.alloc(0)); // never read: the refusal comes first
    const result = await h.run(['voice', 'clone', 'me', sample, sample]);
    expect(result).toMatchObject({
      code: 1,
      stdout: '',
      stderr:
        'hearth: no installed text-to-speech engine can clone a voice (piper speaks only the ' +
        'pretrained voices in the model cache, espeak-ng speaks only its own built-in voices); ' +
        'nothing was stored. hearth voice models pull --tts --voice <name> installs another ' +
        'Piper voice\n',
    });
    await expect(readdir(join(h.home, 'voices'))).rejects.toThrow(/ENOENT/);
    const json = await h.run(['voice', 'clone', 'me', sample, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toEqual({
      detail: expect.stringContaining('no installed text-to-speech engine can clone a voice'),
    });
  });

  it('clone refuses a name that would leave the voices folder (usage, exit 2)', async () => {
    const traversal = await h.run(['voice', 'clone', '../evil', '/etc/hostname']);
    expect(traversal.code).toBe(2);
    expect(traversal.stderr).toMatch(/voice name must be/);
  });

  it('voice listen with no gateway answering exits 1 with the reason', async () => {
    await writeFile(join(h.home, 'config.toml'), '[gateway]\nport = 9\n');
    const sample = join(h.home, 'q.wav');
    await writeFile(sample, Buffer.alloc(0));
    const result = await h.run(['voice', 'listen', '--file', '/nonexistent.wav']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/cannot read \/nonexistent\.wav/);
  });
});
