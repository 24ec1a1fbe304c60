/**
 * In-memory vector search figures (node bench/vector-search.bench.ts): p50/p95 latency of one
 * search (top 8, as the chat pipeline asks for) over 384-dimensional random normalised vectors,
 * at 10k and 100k entries, 200 queries each, unfiltered and filtered to one session of ten.
 * Targets (the issue's): ≤ 1 ms at 10k and ≤ 10 ms p95 at 100k, checked here against p95 for
 * both. Both kernels are measured: the index uses WebAssembly SIMD where available, plain
 * JavaScript otherwise. Figures depend on the machine and on what else it is running.
 * Options: BENCH_SIZES=10000,100000  BENCH_QUERIES=200  BENCH_KERNELS=auto,js
 */
import { createInMemoryVectorStore } from '../gateway/src/memory/vectors/in-memory.ts';

const DIMENSIONS = 384;
const TOP_K = 8;
const SESSIONS = 10;
const sizes = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const queries = Number(process.env.BENCH_QUERIES ?? 200);
const kernels = (process.env.BENCH_KERNELS ?? 'auto,js').split(',') as ('auto' | 'js')[];

/** mulberry32: the same vectors on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function normalisedVector(random: () => number): Float32Array {
  const vector = new Float32Array(DIMENSIONS);
  let squares = 0;
  for (let i = 0; i < DIMENSIONS; i += 1) {
    // sum of uniforms ≈ Gaussian, so directions are spread evenly over the sphere
    const value = random() + random() + random() - 1.5;
    vector[i] = value;
    squares += value * value;
  }
  const scale = 1 / Math.sqrt(squares);
  for (let i = 0; i < DIMENSIONS; i += 1) vector[i] = (vector[i] ?? 0) * scale;
  return vector;
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

const out = process.stdout;
out.write(
  `in-memory vector search, ${DIMENSIONS} dims, top ${TOP_K}, ${queries} queries per row ` +
    `(node ${process.version})\n`,
);
for (const kernel of kernels) {
  for (const size of sizes) {
    const random = seeded(size);
    const store = createInMemoryVectorStore(DIMENSIONS, { kernel });
    const insertStart = performance.now();
    for (let start = 0; start < size; start += 1_000) {
      const batch = [];
      for (let id = start + 1; id <= Math.min(size, start + 1_000); id += 1) {
        batch.push({ id, vector: normalisedVector(random), sessionId: `s${id % SESSIONS}` });
      }
      await store.upsert(batch);
    }
    const insertMs = performance.now() - insertStart;
    const probes = Array.from({ length: queries }, () => normalisedVector(random));

    for (const filtered of [false, true]) {
      for (const probe of probes.slice(0, 10)) await store.search(probe, TOP_K); // warm-up
      const times: number[] = [];
      for (const [i, probe] of probes.entries()) {
        const session = filtered ? `s${i % SESSIONS}` : undefined;
        const started = performance.now();
        await store.search(probe, TOP_K, session);
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      const p50 = percentile(times, 50);
      const p95 = percentile(times, 95);
      // The issue's targets, checked against p95 (the stricter reading) for both sizes.
      const limit = filtered ? undefined : size <= 10_000 ? 1 : size <= 100_000 ? 10 : undefined;
      const verdict =
        limit === undefined ? '' : ` (target ≤ ${limit} ms: ${p95 <= limit ? 'met' : 'MISSED'})`;
      out.write(
        `${store.kernel.padEnd(9)} ${String(size).padStart(7)} entries` +
          `${filtered ? ', one session of ten' : ', all sessions      '}: ` +
          `p50 ${p50.toFixed(3)} ms, p95 ${p95.toFixed(3)} ms${verdict}` +
          `${filtered ? '' : `; loading took ${Math.round(insertMs)} ms`}\n`,
      );
    }
    await store.close();
  }
}
