import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isHearthError } from '../../errors.ts';
import { silentLogger } from '../../observability/logger.ts';
import { cosineSimilarity } from './hash-embedder.ts';
import { monitorEgress, type EgressMonitor } from './testing/egress-monitor.ts';
import { writeTinyModel } from './testing/tiny-model.ts';
import {
  createTransformersEmbedder,
  type TransformersEmbedderOptions,
} from './transformers-embedder.ts';
import { importTransformers } from '../../models/transformers-runtime.ts';
import { featureOffReason } from '../../models/optional-packages.ts';

const RETRY_AFTER_MS = 5 * 60_000;

let root: string;
let modelDir: string;
let egress: EgressMonitor;
let imports: number;
let clock: number;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'hearth-embedder-'));
  modelDir = path.join(root, 'models');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

beforeEach(() => {
  imports = 0;
  clock = 1_700_000_000_000;
  egress = monitorEgress();
});

afterEach(() => {
  egress.stop();
  // Rule 4: embeddings always run locally. Nothing in any test may open a connection.
  expect(egress.events).toEqual([]);
});

function embedderFor(modelId: string, overrides: Partial<TransformersEmbedderOptions> = {}) {
  return createTransformersEmbedder({
    modelDir,
    modelId,
    logger: silentLogger(),
    retryAfterMs: RETRY_AFTER_MS,
    now: () => clock,
    importLibrary: () => {
      imports += 1;
      return importTransformers();
    },
    ...overrides,
  });
}

function norm(vector: Float32Array): number {
  return Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

/** Without the optional embeddings feature (`hearth features add embeddings`) there is no ONNX Runtime. */
const embeddingsOff = featureOffReason('embeddings') ?? undefined;
const skipped = embeddingsOff ? ` (skipped: ${embeddingsOff})` : '';

describe.skipIf(embeddingsOff !== undefined)(
  `transformers embedder on a tiny generated ONNX model (real pipeline + onnxruntime-node)${skipped}`,
  () => {
    it('reports unknown and loads nothing until the first embed call (status: null, reading never loads)', async () => {
      await writeTinyModel({ modelDir, modelId: 'hearth-test/lazy' });
      const embedder = embedderFor('hearth-test/lazy');
      expect(embedder.state).toBe('unknown');
      expect(embedder.detail).toBeNull();
      expect(embedder.dimensions).toBe(384);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(embedder.state).toBe('unknown');
      expect(imports).toBe(0);

      expect(await embedder.embed([])).toEqual([]);
      expect(embedder.state).toBe('unknown');
      expect(imports).toBe(0);
      await embedder.close();
    });

    it('embeds with the model width, unit length, deterministically; shared words score closer', async () => {
      const model = await writeTinyModel({
        modelDir,
        modelId: 'hearth-test/ranking',
        dimensions: 16,
      });
      const embedder = embedderFor(model.modelId);
      const [cat, catAgain, rug, physics] = await embedder.embed([
        'The cat sat on the mat.',
        'the cat sat on the mat.',
        'A cat sat on a rug',
        'Quantum physics lecture notes',
      ]);
      expect(embedder.state).toBe('available');
      expect(embedder.detail).toBeNull();
      expect(embedder.dimensions).toBe(16);
      for (const vector of [cat, catAgain, rug, physics]) {
        expect(vector).toBeInstanceOf(Float32Array);
        expect(vector).toHaveLength(16);
        expect(norm(vector!)).toBeCloseTo(1, 5);
      }
      expect(Array.from(catAgain!)).toEqual(Array.from(cat!));
      const [catLater] = await embedder.embed(['The cat sat on the mat.']);
      expect(Array.from(catLater!)).toEqual(Array.from(cat!));
      expect(cosineSimilarity(cat!, rug!)).toBeGreaterThan(cosineSimilarity(cat!, physics!));
      expect(cosineSimilarity(rug!, physics!)).toBeLessThan(cosineSimilarity(cat!, rug!));
      await embedder.close();
    });

    it('shares one load between concurrent first calls and splits large inputs into batches', async () => {
      const model = await writeTinyModel({ modelDir, modelId: 'hearth-test/batches' });
      const embedder = embedderFor(model.modelId, { maxBatchSize: 4 });
      const texts = Array.from(
        { length: 10 },
        (_, index) => `my favourite train station ${'is blue '.repeat(index)}`,
      );
      const [first, second, third] = await Promise.all([
        embedder.embed(['coffee in the morning']),
        embedder.embed(['a dog ran in the park']),
        embedder.embed(texts),
      ]);
      expect(imports).toBe(1);
      expect(first).toHaveLength(1);
      expect(second).toHaveLength(1);
      expect(third).toHaveLength(10);
      // Padding inside a batch does not change a text's vector.
      const alone = await Promise.all(
        texts.map(async (text) => (await embedder.embed([text]))[0]!),
      );
      third.forEach((vector, index) => {
        Array.from(vector).forEach((value, dim) =>
          expect(value).toBeCloseTo(alone[index]![dim]!, 5),
        );
      });
      await embedder.close();
    });

    it('loads the 8-bit file when it is the only weights present', async () => {
      const model = await writeTinyModel({
        modelDir,
        modelId: 'hearth-test/quantized',
        fileDtype: 'q8',
      });
      const embedder = embedderFor(model.modelId);
      const [vector] = await embedder.embed(['local embedding model']);
      expect(embedder.state).toBe('available');
      expect(vector).toHaveLength(16);
      await embedder.close();
    });

    it('missing model: unavailable with the path and the pull command, rejects fast, retries only after the back-off', async () => {
      const modelId = 'hearth-test/absent';
      const embedder = embedderFor(modelId);
      const error = await rejection(embedder.embed(['hello']));
      expect(isHearthError(error) && error.code).toBe('unavailable');
      expect(embedder.state).toBe('unavailable');
      expect(embedder.detail).toContain(path.join(modelDir, 'hearth-test', 'absent'));
      expect(embedder.detail).toContain('hearth memory models pull');
      // The file check fails before the library is even imported.
      expect(imports).toBe(0);

      // The model appears (pulled by another process); no reload on every turn...
      await writeTinyModel({ modelDir, modelId });
      clock += RETRY_AFTER_MS - 1;
      await expect(embedder.embed(['hello'])).rejects.toThrow('hearth memory models pull');
      expect(embedder.state).toBe('unavailable');
      // ...but after the back-off the next call loads it.
      clock += 1;
      const [vector] = await embedder.embed(['hello']);
      expect(vector).toHaveLength(16);
      expect(embedder.state).toBe('available');
      expect(embedder.detail).toBeNull();
      await embedder.close();
    });

    it('names the missing file when the folder is incomplete; reload() picks up the fix at once', async () => {
      const model = await writeTinyModel({ modelDir, modelId: 'hearth-test/incomplete' });
      await rm(path.join(model.folder, 'tokenizer.json'));
      const embedder = embedderFor(model.modelId);
      await expect(embedder.embed(['hello'])).rejects.toThrow(/missing .*tokenizer\.json/);
      expect(embedder.detail).toContain(path.join(model.folder, 'tokenizer.json'));

      await writeTinyModel({ modelDir, modelId: model.modelId });
      expect(await embedder.reload()).toBe('available');
      expect(await embedder.embed(['hello'])).toHaveLength(1);
      await embedder.close();
    });

    it('a model that fails to load: unavailable with the cause, no reload attempt per call', async () => {
      const model = await writeTinyModel({ modelDir, modelId: 'hearth-test/corrupt' });
      await writeFile(path.join(model.folder, 'onnx', 'model.onnx'), 'this is not an ONNX model');
      const embedder = embedderFor(model.modelId);
      await expect(embedder.embed(['hello'])).rejects.toThrow(/failed to load/);
      expect(embedder.state).toBe('unavailable');
      expect(embedder.detail).toContain(model.folder);
      expect(embedder.detail).toContain('hearth memory models pull');
      expect(imports).toBe(1);
      const started = performance.now();
      await expect(embedder.embed(['hello'])).rejects.toThrow(/failed to load/);
      expect(performance.now() - started).toBeLessThan(250);
      expect(imports).toBe(1);
    });

    it('in a fresh process: lazy until the first call, and runs on the CPU binaries shipped in the npm package', async () => {
      const model = await writeTinyModel({ modelDir, modelId: 'hearth-test/probe' });
      const probe = path.join(import.meta.dirname, '__fixtures__', 'load-probe.ts');
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [probe, modelDir, model.modelId],
        {
          timeout: 60_000,
        },
      );
      const result = JSON.parse(stdout) as {
        stateBefore: string;
        onnxRuntimeBefore: string[];
        stateAfter: string;
        dimensions: number;
        onnxRuntimeAfter: string[];
        bindingFolderFiles: string[];
      };
      expect(result.stateBefore).toBe('unknown');
      // Constructing the embedder and reading its state loaded no native code.
      expect(result.onnxRuntimeBefore).toEqual([]);
      expect(result.stateAfter).toBe('available');
      expect(result.dimensions).toBe(16);
      // The native runtime came from onnxruntime-node's own package folder...
      expect(
        result.onnxRuntimeAfter.some((file) => file.includes(path.join('onnxruntime-node', 'bin'))),
      ).toBe(true);
      // ...which holds only what the npm tarball ships: the postinstall download (GPU execution
      // providers from NuGet) was skipped (`onnxruntime-node-install=skip` in .npmrc) and
      // inference ran anyway.
      expect(result.bindingFolderFiles.filter((file) => /providers_/.test(file))).toEqual([]);
      expect(result.onnxRuntimeAfter.filter((file) => /providers_/.test(file))).toEqual([]);
    });
  },
);
