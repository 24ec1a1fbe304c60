import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTinyPiperVoice } from '../testing/tiny-piper.ts';
import { hasProgram } from '../testing/sox.ts';
import { createEspeakTts } from './espeak-tts.ts';
import { createPiperTts } from './piper-tts.ts';
import { createTtsChain, ttsSwitchedOn } from './tts-chain.ts';
import { featureOffReason } from '../../models/optional-packages.ts';

const espeak = hasProgram('espeak-ng');
/** Piper runs on ONNX Runtime: the optional voice feature (`hearth features add voice`). */
const piperMissing = !espeak
  ? 'espeak-ng is not installed'
  : (featureOffReason('voice') ?? undefined);

describe('the TTS chain on this machine, for real', () => {
  let withVoice: string;
  let empty: string;
  beforeAll(async () => {
    withVoice = await mkdtemp(join(tmpdir(), 'hearth-chain-voice-'));
    empty = await mkdtemp(join(tmpdir(), 'hearth-chain-empty-'));
    await writeTinyPiperVoice(withVoice);
  });
  afterAll(async () => {
    await rm(withVoice, { recursive: true, force: true });
    await rm(empty, { recursive: true, force: true });
  });

  it.skipIf(piperMissing !== undefined)(
    `uses Piper when a voice is in the cache${piperMissing ? ` (skipped: ${piperMissing})` : ''}`,
    async () => {
      const chain = createTtsChain({
        engines: [createPiperTts({ modelDir: withVoice }), createEspeakTts()],
        enabled: true,
      });
      expect(await chain.resolve()).toMatchObject({ available: true, engine: 'piper' });
      expect((await chain.synthesize('Hello.')).sampleRate).toBe(22_050);
      await chain.close();
    },
  );

  it.skipIf(!espeak)(
    `falls back to espeak-ng without Piper weights${espeak ? '' : ' (skipped: espeak-ng is not installed)'}`,
    async () => {
      const chain = createTtsChain({
        engines: [createPiperTts({ modelDir: empty }), createEspeakTts()],
        enabled: true,
      });
      expect(await chain.resolve()).toMatchObject({ available: true, engine: 'espeak-ng' });
      expect(chain.name).toBe('espeak-ng');
    },
  );

  it.skipIf(piperMissing !== undefined)(
    `falls back to espeak-ng when a cached Piper voice turns out to be corrupt${piperMissing ? ` (skipped: ${piperMissing})` : ''}`,
    async () => {
      const corrupt = await mkdtemp(join(tmpdir(), 'hearth-chain-corrupt-'));
      await writeTinyPiperVoice(corrupt);
      await writeFile(join(corrupt, 'piper', 'en_US-tiny-test.onnx'), 'not a model');
      const chain = createTtsChain({
        engines: [createPiperTts({ modelDir: corrupt }), createEspeakTts()],
        enabled: true,
      });
      expect(await chain.resolve()).toMatchObject({ engine: 'piper' });
      const audio = await chain.synthesize('Hello there.');
      expect(audio.sampleRate).toBe(22_050);
      expect(await chain.availability()).toMatchObject({ available: true, engine: 'espeak-ng' });
      await rm(corrupt, { recursive: true, force: true });
    },
  );

  it('falls back to none, naming every reason, when no engine is usable', async () => {
    const chain = createTtsChain({
      engines: [
        createPiperTts({ modelDir: empty }),
        createEspeakTts({ command: '/nonexistent/espeak-ng' }),
      ],
      enabled: true,
    });
    const availability = await chain.resolve();
    expect(availability).toMatchObject({ available: false, engine: 'none' });
    expect(availability.detail).toMatch(/piper: no Piper voice.*espeak-ng: .*not installed/);
    await expect(chain.synthesize('hello')).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('tts_engine only switches TTS on or off; any other value keeps the whole chain', async () => {
    expect(ttsSwitchedOn('auto')).toBe(true);
    expect(ttsSwitchedOn('piper')).toBe(true);
    expect(ttsSwitchedOn('espeak')).toBe(true);
    expect(ttsSwitchedOn('off')).toBe(false);
    expect(ttsSwitchedOn(' None ')).toBe(false);
    const off = createTtsChain({ engines: [createEspeakTts()], enabled: false });
    expect(await off.resolve()).toMatchObject({ available: false, engine: 'none' });
    expect((await off.availability()).detail).toContain('switched off');
  });
});
