import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../observability/logger.ts';
import { createFakeLlmServer, type FakeLlmServer } from '../testing/fakes/fake-llm/server.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';
import { localModelArea } from './area.ts';
import { listOllamaModels, pullOllamaModel, sameModel } from './ollama-pull.ts';

describe('pull_local_model: the gateway pulls [models] local when the runtime lacks it', () => {
  let fake: FakeLlmServer | undefined;
  let gateway: TestGateway | undefined;
  afterEach(async () => {
    await gateway?.close();
    await fake?.close();
    gateway = undefined;
    fake = undefined;
  });

  it('pulls a missing model before /ready, and /status says it was pulled', async () => {
    fake = await createFakeLlmServer({ models: [] });
    gateway = await startTestGateway({
      config: { models: { pull_local_model: true, local: 'ollama/llama3.2' } },
      providerEndpoints: { ollama: fake.url },
    });
    await gateway.gateway.whenReady();
    const pulls = fake.requests.filter((request) => request.path === '/api/pull');
    expect(pulls.map((request) => request.body)).toEqual([{ model: 'llama3.2', stream: true }]);
    const status = (await (await fetch(`${gateway.url}/api/v1/status`)).json()) as {
      backends: Record<string, string>;
    };
    expect(status.backends.local_model).toBe('llama3.2: pulled');
    expect(await listOllamaModels({ baseUrl: fake.url, fetch })).toContain('llama3.2');
  });

  it('does not pull a model the runtime has (llama3.2 is llama3.2:latest)', async () => {
    fake = await createFakeLlmServer({ models: ['llama3.2:latest'] });
    gateway = await startTestGateway({
      config: { models: { pull_local_model: true } },
      providerEndpoints: { ollama: fake.url },
    });
    await gateway.gateway.whenReady();
    expect(fake.requests.some((request) => request.path === '/api/pull')).toBe(false);
  });

  it('is off by default: no request reaches the runtime at start', async () => {
    fake = await createFakeLlmServer({ models: [] });
    gateway = await startTestGateway({ providerEndpoints: { ollama: fake.url } });
    await gateway.gateway.whenReady();
    expect(fake.requests).toEqual([]);
  });

  it('reports progress while pulling, then the outcome', async () => {
    fake = await createFakeLlmServer({ models: [] });
    const seen: string[] = [];
    const area = localModelArea({
      enabled: true,
      model: 'ollama/llama3.2',
      baseUrl: fake.url,
      fetch: async (input, init) => {
        seen.push(area.status?.().local_model ?? '');
        return await fetch(input, init);
      },
      logger: silentLogger(),
    });
    await area.start?.();
    expect(seen[0]).toMatch(/^waiting for the local runtime/);
    expect(area.status?.()).toEqual({ local_model: 'llama3.2: pulled' });
  });

  it('goes on when the runtime never answers, and says so', async () => {
    let clock = 0;
    const area = localModelArea({
      enabled: true,
      model: 'ollama/llama3.2',
      baseUrl: 'http://127.0.0.1:9',
      fetch: () => Promise.reject(new TypeError('fetch failed')),
      logger: silentLogger(),
      reachTimeoutMs: 5_000,
      retryMs: 1,
      now: () => (clock += 1_000),
    });
    await area.start?.();
    expect(area.status?.().local_model).toBe(
      'llama3.2: local runtime unreachable at http://127.0.0.1:9, not pulled',
    );
  });

  it('goes on when the runtime cannot pull the model, with Ollama’s own message', async () => {
    fake = await createFakeLlmServer({ models: [], ollamaPullable: ['other'] });
    const area = localModelArea({
      enabled: true,
      model: 'ollama/llama3.2',
      baseUrl: fake.url,
      fetch,
      logger: silentLogger(),
    });
    await area.start?.();
    expect(area.status?.().local_model).toBe(
      'llama3.2: pull failed: pull model manifest: file does not exist',
    );
  });

  it('names a model it cannot pull (not an ollama/ model)', async () => {
    const area = localModelArea({
      enabled: true,
      model: 'gpt-4o-mini',
      baseUrl: 'http://127.0.0.1:9',
      fetch: () => Promise.reject(new Error('no request expected')),
      logger: silentLogger(),
    });
    await area.start?.();
    expect(area.status?.().local_model).toBe('not pulled: gpt-4o-mini is not an ollama/ model');
  });
});

describe('Ollama pull client', () => {
  const respondWith =
    (body: string, status = 200): typeof globalThis.fetch =>
    () =>
      Promise.resolve(new Response(body, { status }));
  const pull = (fetchImpl: typeof globalThis.fetch) =>
    pullOllamaModel({ baseUrl: 'http://x', model: 'm', fetch: fetchImpl, onProgress: () => {} });

  it('fails on a line that is not JSON, a stream without success, and a non-2xx answer', async () => {
    await expect(pull(respondWith('{"status":"pulling"}\nnot json\n'))).rejects.toThrow(/not JSON/);
    await expect(pull(respondWith('{"status":"pulling manifest"}\n'))).rejects.toThrow(
      /ended before "success"/,
    );
    await expect(pull(respondWith('{"error":"boom"}', 500))).rejects.toThrow(/500/);
  });

  it('reads progress split across chunks', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const encoder = new TextEncoder();
        controller.enqueue(encoder.encode('{"status":"pulling x","total":4,"comp'));
        controller.enqueue(encoder.encode('leted":2}\n{"status":"succ'));
        controller.enqueue(encoder.encode('ess"}'));
        controller.close();
      },
    });
    const progress: unknown[] = [];
    await pullOllamaModel({
      baseUrl: 'http://x',
      model: 'm',
      fetch: () => Promise.resolve(new Response(body)),
      onProgress: (line) => progress.push(line),
    });
    expect(progress).toEqual([
      { status: 'pulling x', total: 4, completed: 2 },
      { status: 'success' },
    ]);
  });

  it('treats name and name:latest as one model', () => {
    expect(sameModel('llama3.2:latest', 'llama3.2')).toBe(true);
    expect(sameModel('llama3.2:1b', 'llama3.2')).toBe(false);
  });
});
