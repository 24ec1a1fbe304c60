/**
 * Router + adapter overhead (npm run bench:router): the same chat completion through
 * Hearth's router (OpenAI adapter, AI SDK) versus a direct fetch of the fake server, 500
 * sequential calls each after a warm-up. Target: ≤ 1 ms added at p50.
 */
import { configSchema } from '../gateway/src/config/schema.ts';
import { createHostStats } from '../gateway/src/observability/host-stats.ts';
import { silentLogger } from '../gateway/src/observability/logger.ts';
import { createMetrics } from '../gateway/src/observability/metrics.ts';
import { createLlmRouter } from '../gateway/src/providers/router.ts';
import { createFakeLlmServer } from '../gateway/src/testing/fakes/fake-llm/server.ts';
import { createUsageTracker } from '../gateway/src/usage/usage-tracker.ts';
import { percentile } from './process.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 500);
const fake = await createFakeLlmServer({
  defaultReply: { text: 'ok', usage: { inputTokens: 3, outputTokens: 1 } },
});
const metrics = createMetrics(createHostStats('/'));
const models = {
  ...configSchema.parse({}).models,
  primary: 'gpt-4o-mini',
  fast: '',
  openai_api_key: 'sk-bench',
};
const router = createLlmRouter({
  models: () => models,
  endpoints: { openai: `${fake.url}/v1` },
  fetch: globalThis.fetch,
  usage: createUsageTracker(metrics),
  metrics,
  logger: silentLogger(),
});
const messages = [{ role: 'user' as const, content: 'hello there' }];
const directBody = JSON.stringify({ model: 'gpt-4o-mini', messages });

async function time(run: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 50; i += 1) await run();
  const samples: number[] = [];
  for (let i = 0; i < CALLS; i += 1) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
    fake.requests.length = 0;
  }
  return samples.sort((a, b) => a - b);
}

const direct = await time(async () => {
  const res = await fetch(`${fake.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
    body: directBody,
  });
  await res.json();
});
const routed = await time(() => router.generate({ messages }));
await fake.close();

const fmt = (n: number) => n.toFixed(3);
const added = percentile(routed, 50) - percentile(direct, 50);
process.stdout.write(
  `direct fetch: p50 ${fmt(percentile(direct, 50))} ms, p95 ${fmt(percentile(direct, 95))} ms\n` +
    `router + adapter: p50 ${fmt(percentile(routed, 50))} ms, p95 ${fmt(percentile(routed, 95))} ms\n` +
    `added by Hearth + AI SDK at p50: ${fmt(added)} ms (target ≤ 1 ms)\n`,
);
