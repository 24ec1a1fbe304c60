/**
 * Behaviour rule 3 through real gateways: each memory tier's fallback, with the real services
 * (a throw-away redis-server child process) or real unreachable addresses. No error of a
 * failing tier may reach a chat caller; /api/v1/status shows which adapter is in use.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HearthConfig } from '../config/schema.ts';
import { createFakeLlmServer, type FakeLlmServer } from '../testing/fakes/fake-llm/server.ts';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';
import { createHashEmbedder } from './embedder/hash-embedder.ts';
import { redisServerProcess, type RedisServerProcess } from './short-term/testing/redis-server.ts';

interface Status {
  memory: { semantic_available: boolean | null };
  backends: Record<string, string>;
}

let fake: FakeLlmServer;
const running: TestGateway[] = [];

beforeAll(async () => {
  fake = await createFakeLlmServer();
});
afterAll(() => fake.close());
afterEach(async () => {
  for (const gw of running.splice(0)) await gw.close();
  fake.reset();
});

/** A ready gateway on the fake LLM with the given [memory] section. */
async function gateway(
  memory: Partial<HearthConfig['memory']>,
  options: { hashEmbedder?: boolean } = { hashEmbedder: true },
): Promise<TestGateway> {
  const gw = await startTestGateway({
    config: {
      models: { openai_api_key: 'sk-test', primary: 'gpt-4o', fallback: '', fast: '', local: '' },
      memory,
    },
    providerEndpoints: { openai: `${fake.url}/v1` },
    embedder: options.hashEmbedder ? createHashEmbedder({ dimensions: 64 }) : undefined,
  });
  running.push(gw);
  await gw.gateway.whenReady();
  return gw;
}

async function status(gw: TestGateway): Promise<Status> {
  return (await (await fetch(`${gw.url}/api/v1/status`)).json()) as Status;
}

async function chat(
  gw: TestGateway,
  message: string,
  session_id: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${gw.url}/api/v1/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message, session_id }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function expectChatWorks(gw: TestGateway, session: string, reply: string): Promise<void> {
  fake.reply({ text: reply, usage: { inputTokens: 5, outputTokens: 3 } });
  const { status: code, body } = await chat(gw, `hello from ${session}`, session);
  expect(code).toBe(200);
  expect(body).toMatchObject({ reply, session_id: session, provider: 'openai' });
}

describe('cache (Redis) fallback', () => {
  it('starts on in-process storage when Redis is down at start, and chat works', async () => {
    const gw = await gateway({ cache_url: 'redis://127.0.0.1:1' });
    expect((await status(gw)).backends.short_term).toBe('in-process');
    await expectChatWorks(gw, 'redis-down', 'Still here.');
    // Short-term memory works on the fallback: once the live session is gone, the first turn
    // comes back from the short-term tier into the next turn's prompt.
    await expect
      .poll(async () => (await gw.gateway.memory().shortTerm.recent('redis-down', 10)).length)
      .toBe(2);
    await fetch(`${gw.url}/api/v1/sessions/redis-down`, { method: 'DELETE' });
    fake.reply({ text: 'You said hello.' });
    await chat(gw, 'What did I say?', 'redis-down');
    const system = INSPECTORS['openai-chat'].system(fake.requests[1]!);
    expect(system).toContain('short-term');
    expect(system).toContain('hello from redis-down');
  });

  describe('with a Redis that dies mid-run and comes back', () => {
    let redis: RedisServerProcess;
    beforeAll(async () => {
      redis = await redisServerProcess();
      await redis.start();
    });
    afterAll(() => redis.kill());

    it('keeps answering without an error, flips to in-process, and back to redis', async () => {
      const gw = await gateway({ cache_url: redis.url });
      expect((await status(gw)).backends.short_term).toBe('redis');
      await expectChatWorks(gw, 'flaky', 'Before the outage.');

      await redis.kill();
      await expectChatWorks(gw, 'flaky', 'During the outage.');
      await expect
        .poll(async () => (await status(gw)).backends.short_term, {
          timeout: 10_000,
          interval: 100,
        })
        .toBe('in-process');
      // Turns keep working while degraded.
      await expectChatWorks(gw, 'flaky', 'Still during the outage.');

      await redis.start();
      // The gateway probes Redis every 5 s while degraded.
      await expect
        .poll(async () => (await status(gw)).backends.short_term, {
          timeout: 15_000,
          interval: 200,
        })
        .toBe('redis');
      await expectChatWorks(gw, 'flaky', 'After the outage.');
    }, 40_000);
  });
});

describe('vector store fallback', () => {
  it('uses in-memory cosine similarity when the vector store is unreachable; memory still works', async () => {
    const gw = await gateway({ vector_store_url: 'http://127.0.0.1:1' });
    expect((await status(gw)).backends.vectors).toBe('in-memory');

    fake.reply({ text: 'Nice to meet you, Ada.' });
    const first = await chat(gw, 'My name is Ada and I live in Leeds', 'vectors');
    expect(first.status).toBe(200);
    await expect
      .poll(
        async () => {
          const res = await fetch(`${gw.url}/api/v1/memory?session_id=vectors`);
          return ((await res.json()) as { count: number }).count;
        },
        { timeout: 5_000 },
      )
      .toBe(1);
    // A fresh live session: what it recalls comes from the memory tiers.
    await fetch(`${gw.url}/api/v1/sessions/vectors`, { method: 'DELETE' });
    fake.reply({ text: 'Leeds.' });
    const second = await chat(gw, 'Where do I live?', 'vectors');
    expect(second.status).toBe(200);
    const system = INSPECTORS['openai-chat'].system(fake.requests[1]!);
    expect(system).toContain('<memory>');
    expect(system).toContain('I live in Leeds');
  });
});

describe('embedding model unavailable', () => {
  it('reports semantic_available null before the first embed call, false after it; chat works', async () => {
    // No injected embedder: the real local one, with no model in the fresh state directory.
    const gw = await gateway({}, { hashEmbedder: false });
    const before = await status(gw);
    expect(before.memory.semantic_available).toBeNull();
    // The model's files are absent: off at once, with how to turn it on (nothing loaded).
    expect(before.backends.embedder).toBe(
      'off (no embedding model; to turn on: hearth memory models pull)',
    );
    // Reading the status twice loads nothing.
    expect((await status(gw)).memory.semantic_available).toBeNull();

    await expectChatWorks(gw, 'no-model', 'Answered without embeddings.');
    await expect
      .poll(async () => (await status(gw)).memory.semantic_available, { timeout: 10_000 })
      .toBe(false);
    expect((await status(gw)).backends.embedder).toBe(
      'off (no embedding model; to turn on: hearth memory models pull)',
    );

    // The other tiers still work: an important turn is stored long-term (without an embedding).
    fake.reply({ text: 'Noted, Ada.' });
    expect((await chat(gw, 'My name is Ada and I live in Leeds', 'no-model')).status).toBe(200);
    await expect
      .poll(async () => {
        const res = await fetch(`${gw.url}/api/v1/memory/search?q=Leeds&session_id=no-model`);
        return ((await res.json()) as { count: number }).count;
      })
      .toBe(1);
  });
});
