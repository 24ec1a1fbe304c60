import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../observability/logger.ts';
import { piperVoicePath, pullPiperVoice, pullWhisperModel } from './pull-voice-models.ts';
import { writeTinyPiperVoice } from './testing/tiny-piper.ts';
import { createPiperTts } from './tts/piper-tts.ts';
import { hasProgram } from './testing/sox.ts';
import { featureOffReason } from '../models/optional-packages.ts';

// Real speech engines on a shared, loaded machine: generous bounds.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

/** A model hub on 127.0.0.1 serving the piper-voices layout (the real URL shape). */
let hub: Server;
let hubUrl: string;
let source: string;
let cache: string;
const requested: string[] = [];

beforeAll(async () => {
  source = await mkdtemp(join(tmpdir(), 'hearth-hub-src-'));
  cache = await mkdtemp(join(tmpdir(), 'hearth-hub-cache-'));
  await writeTinyPiperVoice(source, 'en_US-tiny-medium');
  hub = createServer((req, res) => {
    requested.push(req.url ?? '');
    const prefix = '/rhasspy/piper-voices/resolve/main/en/en_US/tiny/medium/';
    if (!req.url?.startsWith(prefix)) return void res.writeHead(404).end('not found');
    readFile(join(source, 'piper', req.url.slice(prefix.length))).then(
      (body) => res.writeHead(200, { 'content-length': body.length }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => hub.listen(0, '127.0.0.1', resolve));
  const address = hub.address();
  hubUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
});
afterAll(async () => {
  await new Promise((resolve) => hub.close(resolve));
  await rm(source, { recursive: true, force: true });
  await rm(cache, { recursive: true, force: true });
});

/** Loading the pulled voice needs espeak-ng and the optional voice feature (ONNX Runtime). */
const piperMissing = !hasProgram('espeak-ng')
  ? 'espeak-ng is not installed'
  : (featureOffReason('voice') ?? undefined);

describe('hearth voice models pull --tts', () => {
  it('maps a voice name to the piper-voices path, refusing anything else', () => {
    expect(piperVoicePath('en_US-lessac-medium')).toBe(
      'en/en_US/lessac/medium/en_US-lessac-medium',
    );
    expect(() => piperVoicePath('../../etc/passwd')).toThrow(/not a Piper voice name/);
  });

  it.skipIf(piperMissing !== undefined)(
    `downloads both files into the cache, where the Piper engine then finds and loads them${piperMissing ? ` (skipped: ${piperMissing})` : ''}`,
    async () => {
      const pulled = await pullPiperVoice({
        modelDir: cache,
        voice: 'en_US-tiny-medium',
        remoteHost: hubUrl,
        logger: silentLogger(),
      });
      expect(pulled.files.map((file) => file.slice(cache.length))).toEqual([
        '/piper/en_US-tiny-medium.onnx',
        '/piper/en_US-tiny-medium.onnx.json',
      ]);
      expect(await createPiperTts({ modelDir: cache }).availability()).toMatchObject({
        available: true,
        engine: 'piper',
      });
    },
  );

  it('a missing voice fails with the URL and leaves the cache as it was', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'hearth-hub-empty-'));
    await expect(
      pullPiperVoice({
        modelDir: empty,
        voice: 'en_US-nobody-low',
        remoteHost: hubUrl,
        logger: silentLogger(),
      }),
    ).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/404/) as unknown,
    });
    expect(await createPiperTts({ modelDir: empty }).availability()).toMatchObject({
      available: false,
    });
    await rm(empty, { recursive: true, force: true });
  });
});

describe('hearth voice models pull (Whisper)', () => {
  it('reports an unreachable hub as a clean error and writes no model', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'hearth-whisper-pull-'));
    await expect(
      pullWhisperModel({
        modelDir: empty,
        model: 'tiny',
        remoteHost: 'http://127.0.0.1:9/',
        timeoutMs: 20_000,
        logger: silentLogger(),
      }),
    ).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/could not pull onnx-community\/whisper-tiny/) as unknown,
    });
    await rm(empty, { recursive: true, force: true });
  });
});
