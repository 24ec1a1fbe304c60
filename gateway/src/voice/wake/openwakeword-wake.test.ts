import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import { createNoSpeechToText } from '../stt/none-stt.ts';
import { createScriptedStt } from '../testing/scripted-stt.ts';
import { espeakSpeech16k, hasProgram } from '../testing/sox.ts';
import {
  tinyClassifier,
  tinyMelspectrogram,
  writeTinyOpenWakeWord,
} from '../testing/tiny-openwakeword.ts';
import { buildVoiceRuntime } from '../voice-runtime.ts';
import { voiceSection } from '../../config/schema.ts';
import { classifierPath, inspectOpenWakeWordFiles } from './openwakeword-files.ts';
import { createOpenWakeWord } from './openwakeword-wake.ts';
import { createPhraseWake } from './phrase-wake.ts';
import { createWakeChain } from './wake-chain.ts';
import { runWakeConformance } from './wake-conformance.ts';
import { featureOffReason } from '../../models/optional-packages.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const missing =
  !hasProgram('espeak-ng') || !hasProgram('sox') ? 'espeak-ng or sox is not installed' : undefined;

/** Without the optional voice feature (`hearth features add voice`) there is no ONNX Runtime. */
const voiceOff = featureOffReason('voice') ?? undefined;
const skippedVoice = voiceOff ? ` (skipped: ${voiceOff})` : '';

/** 30 dB quieter: the tiny models are an energy detector, so this is what they must reject. */
function quieter(samples: Int16Array): Int16Array {
  return samples.map((value) => Math.round(value / 31.6));
}

const fixtures = missing
  ? undefined
  : {
      wake: espeakSpeech16k('Hey Hearth.'),
      other: quieter(espeakSpeech16k('What time is it?')),
      silence: new Int16Array(16_000),
    };

let modelDir: string;
let word: string;
beforeAll(async () => {
  modelDir = await mkdtemp(join(tmpdir(), 'hearth-oww-'));
  word = await writeTinyOpenWakeWord(modelDir);
});
afterAll(() => rm(modelDir, { recursive: true, force: true }));

runWakeConformance(
  'openWakeWord (tiny generated models: an energy classifier; "other" is speech 30 dB quieter)',
  () => createOpenWakeWord({ modelDir, model: word, threshold: 0.5 }),
  () => fixtures!,
  { skip: voiceOff ?? missing },
);

describe('openWakeWord model files', () => {
  it('resolves a name in the model cache and an absolute classifier path', () => {
    expect(classifierPath('/m', 'hey_jarvis')).toEqual({
      ok: true,
      path: '/m/openwakeword/hey_jarvis.onnx',
    });
    expect(classifierPath('/m', 'hey_jarvis.onnx')).toMatchObject({
      path: '/m/openwakeword/hey_jarvis.onnx',
    });
    expect(classifierPath('/m', '/opt/oww/./alexa.onnx')).toEqual({
      ok: true,
      path: '/opt/oww/alexa.onnx',
    });
  });

  it('refuses empty, traversing and non-model values', () => {
    for (const value of [
      '',
      '  ',
      '../secrets',
      '..',
      'a/../../b',
      'sub/dir',
      '/etc/passwd',
      '.hidden',
    ])
      expect(classifierPath('/m', value).ok, value).toBe(false);
  });

  it('names every missing file and says why none are bundled', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'hearth-oww-empty-'));
    try {
      const check = await inspectOpenWakeWordFiles(empty, 'hey_jarvis');
      expect(check.ok).toBe(false);
      if (check.ok) return;
      expect(check.detail).toContain('hey_jarvis.onnx');
      expect(check.detail).toContain('melspectrogram.onnx');
      expect(check.detail).toContain('embedding_model.onnx');
      expect(check.detail).toMatch(/licence is non-commercial/);
      const wake = createOpenWakeWord({ modelDir: empty, model: 'hey_jarvis', threshold: 0.5 });
      expect(await wake.availability()).toMatchObject({ available: false, engine: 'openwakeword' });
      await expect(wake.detect(new Int16Array(16_000))).rejects.toMatchObject({
        code: 'unavailable',
      });
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('a directory where a model file should be is not a model', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-oww-dir-'));
    try {
      await writeTinyOpenWakeWord(dir, { word: 'w' });
      await rm(join(dir, 'openwakeword', 'embedding_model.onnx'));
      await mkdir(join(dir, 'openwakeword', 'embedding_model.onnx'));
      expect((await inspectOpenWakeWordFiles(dir, 'w')).ok).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(voiceOff !== undefined)(
  `openWakeWord inference on onnxruntime-node${skippedVoice}`,
  () => {
    it('scores a chunk stream: loud sound wakes it, silence does not, scores stay in 0..1', async () => {
      const wake = createOpenWakeWord({ modelDir, model: word, threshold: 0.5 });
      // 1.5 s of a 300 Hz tone at about -15 dBFS: loud like speech, no espeak-ng needed.
      const tone = Int16Array.from({ length: 24_000 }, (_, i) =>
        Math.round(6_000 * Math.sin((2 * Math.PI * 300 * i) / 16_000)),
      );
      const loud = await wake.detect(tone);
      expect(loud.detected).toBe(true);
      expect(loud.score).toBeGreaterThan(0.5);
      expect(loud.score).toBeLessThanOrEqual(1);
      const quiet = await wake.detect(new Int16Array(24_000));
      expect(quiet).toMatchObject({ detected: false });
      expect(quiet.score).toBeGreaterThanOrEqual(0);
      // Short and empty segments are scored on the silent tail, without errors.
      expect((await wake.detect(new Int16Array(0))).detected).toBe(false);
      expect((await wake.detect(tone.subarray(0, 100))).detected).toBe(false);
      await wake.close();
    });

    it('reads how many embeddings the classifier takes from its input shape', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'hearth-oww-window-'));
      try {
        await writeTinyOpenWakeWord(dir, { word: 'short', window: 4 });
        const wake = createOpenWakeWord({ modelDir: dir, model: 'short', threshold: 0.5 });
        const tone = Int16Array.from({ length: 8_000 }, (_, i) =>
          Math.round(6_000 * Math.sin((2 * Math.PI * 300 * i) / 16_000)),
        );
        // With 4 embeddings (320 ms) half a second of sound fills the whole window.
        expect((await wake.detect(tone)).score).toBeGreaterThan(0.99);
        await wake.close();
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('loads by absolute path, as a user-supplied folder would be', async () => {
      const wake = createOpenWakeWord({
        modelDir: '/nonexistent',
        model: join(modelDir, 'openwakeword', `${word}.onnx`),
        threshold: 0.5,
      });
      expect(await wake.availability()).toMatchObject({ available: true, engine: 'openwakeword' });
      expect((await wake.detect(new Int16Array(16_000))).detected).toBe(false);
      await wake.close();
    });

    it('stops at an aborted signal', async () => {
      const wake = createOpenWakeWord({ modelDir, model: word, threshold: 0.5 });
      const controller = new AbortController();
      controller.abort();
      await expect(wake.detect(new Int16Array(32_000), controller.signal)).rejects.toThrow();
      await wake.close();
    });

    it('a corrupt classifier is a clear 503, not a crash', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'hearth-oww-corrupt-'));
      try {
        await writeTinyOpenWakeWord(dir, { word: 'broken' });
        await writeFile(join(dir, 'openwakeword', 'broken.onnx'), 'not a model at all');
        const wake = createOpenWakeWord({ modelDir: dir, model: 'broken', threshold: 0.5 });
        expect(await wake.availability()).toMatchObject({ available: true });
        await expect(wake.detect(new Int16Array(16_000))).rejects.toMatchObject({
          code: 'unavailable',
          message: expect.stringMatching(/wake-word model cannot load/),
        });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('models of the wrong shape are refused with the shape they must have', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'hearth-oww-shape-'));
      try {
        await writeTinyOpenWakeWord(dir, { word: 'w' });
        await writeFile(join(dir, 'openwakeword', 'melspectrogram.onnx'), tinyMelspectrogram(40));
        const wrongMel = createOpenWakeWord({ modelDir: dir, model: 'w', threshold: 0.5 });
        await expect(wrongMel.detect(new Int16Array(16_000))).rejects.toThrow(
          /melspectrogram model must return float \[1, 1, frames, 32\]/,
        );
        // A classifier fed to the embedding slot returns a score, not 96 values.
        await writeFile(join(dir, 'openwakeword', 'melspectrogram.onnx'), tinyMelspectrogram());
        await writeFile(
          join(dir, 'openwakeword', 'embedding_model.onnx'),
          tinyClassifier({ centre: 0, slope: 1, window: 16 }),
        );
        const wrongEmbedding = createOpenWakeWord({ modelDir: dir, model: 'w', threshold: 0.5 });
        await expect(wrongEmbedding.detect(new Int16Array(16_000))).rejects.toThrow(
          /openWakeWord embedding model/,
        );
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  },
);

describe.skipIf(voiceOff !== undefined)(`wake-word selection${skippedVoice}`, () => {
  it('the chain falls back to phrase spotting when the ONNX models fail when used', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-oww-fallback-'));
    try {
      await writeTinyOpenWakeWord(dir, { word: 'broken' });
      await writeFile(join(dir, 'openwakeword', 'broken.onnx'), 'garbage');
      const chain = createWakeChain([
        createOpenWakeWord({ modelDir: dir, model: 'broken', threshold: 0.5 }),
        createPhraseWake({
          stt: createScriptedStt(['hey hearth']),
          phrase: 'hey hearth',
          threshold: 0.5,
        }),
      ]);
      expect(await chain.resolve()).toMatchObject({ engine: 'openwakeword' });
      const tone = Int16Array.from({ length: 16_000 }, (_, i) =>
        Math.round(6_000 * Math.sin((2 * Math.PI * 300 * i) / 16_000)),
      );
      expect((await chain.detect(tone)).detected).toBe(true);
      expect(await chain.availability()).toMatchObject({ available: true, engine: 'phrase' });
      await chain.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the runtime picks openWakeWord when the files exist, else phrase spotting, else none', async () => {
    const build = (config: Partial<ReturnType<typeof voiceSection.parse>>, withStt: boolean) =>
      buildVoiceRuntime({
        config: voiceSection.parse(config),
        modelDir,
        logger: silentLogger(),
        overrides: {
          stt: withStt ? createScriptedStt([]) : createNoSpeechToText('no Whisper weights'),
        },
      });
    const onnx = await build({ wake_word_model: word }, false);
    expect(onnx.availability.wake).toMatchObject({ available: true, engine: 'openwakeword' });
    await onnx.close();
    const phrase = await build({ wake_word_model: 'not_there' }, true);
    expect(phrase.availability.wake).toMatchObject({ available: true, engine: 'phrase' });
    await phrase.close();
    const none = await build({ wake_word_model: 'not_there' }, false);
    expect(none.availability.wake).toMatchObject({ available: false, engine: 'none' });
    expect(none.availability.wake.detail).toContain('not_there.onnx');
    expect(none.availability.wake.detail).toContain('no Whisper weights');
    await none.close();
  });
});
