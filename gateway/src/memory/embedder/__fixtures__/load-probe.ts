/**
 * Runs in a child process of its own (so nothing else has loaded the library): proves the
 * embedder is lazy and measures what loading costs. Prints one JSON line.
 *
 *   node gateway/src/memory/embedder/__fixtures__/load-probe.ts <modelDir> <modelId>
 *
 * Used by transformers-embedder.test.ts; also the way to take the figures by hand.
 */
import path from 'node:path';
import { silentLogger } from '../../../observability/logger.ts';
import { createTransformersEmbedder } from '../transformers-embedder.ts';
import { importTransformers } from '../../../models/transformers-runtime.ts';

const [modelDir, modelId] = process.argv.slice(2);
if (!modelDir || !modelId) throw new Error('usage: load-probe.ts <modelDir> <modelId>');

const SENTENCE = 'the cat sat on the mat in the morning';

function loadedOnnxRuntime(): string[] {
  const report = process.report.getReport() as { sharedObjects?: string[] };
  return (report.sharedObjects ?? []).filter((file) => /onnxruntime/i.test(path.basename(file)));
}

function rssMb(): number {
  return Math.round((process.memoryUsage().rss / 2 ** 20) * 10) / 10;
}

async function timed<T>(task: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await task();
  return [result, Math.round((performance.now() - started) * 100) / 100];
}

async function median(runs: number, task: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) samples.push((await timed(task))[1]);
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] ?? 0;
}

const rssStart = rssMb();
const embedder = createTransformersEmbedder({
  modelDir,
  modelId,
  dimensions: 16,
  logger: silentLogger(),
});
const stateBefore = embedder.state;
const detailBefore = embedder.detail;
const onnxRuntimeBefore = loadedOnnxRuntime();

const [, importMs] = await timed(() => importTransformers());
const rssAfterImport = rssMb();

const [, loadMs] = await timed(() => embedder.embed([SENTENCE]));
const stateAfter = embedder.state;
const rssAfterLoad = rssMb();

const singleMs = await median(20, () => embedder.embed([SENTENCE]));
const batch = Array.from(
  { length: 32 },
  (_, index) => `${SENTENCE} number ${index} ${'garden '.repeat(index % 5)}`,
);
const batch32Ms = await median(10, () => embedder.embed(batch));

const onnxRuntimeAfter = loadedOnnxRuntime();
const binding = onnxRuntimeAfter.find((file) =>
  path.basename(file).startsWith('onnxruntime_binding'),
);
const { readdir } = await import('node:fs/promises');
const bindingFolderFiles = binding ? await readdir(path.dirname(binding)) : [];

process.stdout.write(
  `${JSON.stringify({
    stateBefore,
    detailBefore,
    onnxRuntimeBefore,
    stateAfter,
    dimensions: embedder.dimensions,
    onnxRuntimeAfter,
    bindingFolderFiles,
    importMs,
    loadMs,
    singleMs,
    batch32Ms,
    rssStart,
    rssAfterImport,
    rssAfterLoad,
    rssEnd: rssMb(),
  })}\n`,
);
await embedder.close();
