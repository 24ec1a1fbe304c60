import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeLlmServer, type FakeLlmServer } from '../testing/fakes/fake-llm/server.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';

/** A loopback port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

interface ModelReady {
  ok: boolean;
  detail: string;
  fix: string;
}

/** Every URL the gateway fetched for providers. */
function recordingFetch(): { fetch: typeof fetch; urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    fetch: (input, init) => {
      urls.push(input instanceof Request ? input.url : String(input));
      return fetch(input, init);
    },
  };
}

async function status(
  gw: TestGateway,
): Promise<Record<string, unknown> & { model_ready: ModelReady }> {
  const res = await fetch(`${gw.url}/api/v1/status`);
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown> & { model_ready: ModelReady };
}

/**
 * `/api/v1/status` `model_ready`: before the first message fails, the first line of the status
 * says whether any model can answer, from the configured providers alone (no paid call).
 */
describe('GET /api/v1/status model_ready', () => {
  let gw: TestGateway | undefined;
  let fake: FakeLlmServer | undefined;
  afterEach(async () => {
    await gw?.close();
    await fake?.close();
    gw = undefined;
    fake = undefined;
  });

  it('is the first field; without the local runtime and without a key: not ok, and says what to do', async () => {
    const port = await closedPort();
    const net = recordingFetch();
    gw = await startTestGateway({
      config: { models: { ollama_base_url: `http://127.0.0.1:${port}` } },
      fetch: net.fetch,
    });
    await gw.gateway.whenReady();
    const body = await status(gw);
    expect(Object.keys(body)[0]).toBe('model_ready');
    expect(body.model_ready.ok).toBe(false);
    expect(body.model_ready.detail).toContain(
      `the local runtime (Ollama) at http://127.0.0.1:${port} is not reachable`,
    );
    expect(body.model_ready.fix).toContain(`Start Ollama at http://127.0.0.1:${port}`);
    expect(body.model_ready.fix).toContain('`hearth setup`');
    expect(body.model_ready.fix).toContain("the web client's set-up page (/#setup)");
    // Only the local runtime's model list was asked for.
    expect(net.urls).toEqual([`http://127.0.0.1:${port}/api/tags`]);
  });

  it('is ok when the local runtime answers and has the model; cached briefly', async () => {
    fake = await createFakeLlmServer({ models: ['llama3.2:latest'] });
    gw = await startTestGateway({ config: { models: { ollama_base_url: fake.url } } });
    await gw.gateway.whenReady();
    const first = await status(gw);
    expect(first.model_ready).toEqual({
      ok: true,
      detail: `ready: ollama/llama3.2 on the local runtime at ${fake.url}`,
      fix: '',
    });
    await status(gw);
    await status(gw);
    expect(fake.requests.filter((r) => r.path === '/api/tags')).toHaveLength(1);
    // No chat request: reading the status never generates.
    expect(fake.requests.every((r) => r.method === 'GET')).toBe(true);
  });

  it('says which model to pull when the local runtime answers without it', async () => {
    fake = await createFakeLlmServer({ models: ['qwen3:8b'] });
    gw = await startTestGateway({ config: { models: { ollama_base_url: fake.url } } });
    await gw.gateway.whenReady();
    const { model_ready } = await status(gw);
    expect(model_ready.ok).toBe(false);
    expect(model_ready.detail).toContain('has no model llama3.2');
    expect(model_ready.fix).toMatch(/^Run `ollama pull llama3\.2`, or run `hearth setup`/);
  });

  it('turns ok as soon as a key is saved in Settings, without calling the provider', async () => {
    const port = await closedPort();
    const net = recordingFetch();
    gw = await startTestGateway({
      config: { models: { ollama_base_url: `http://127.0.0.1:${port}` } },
      fetch: net.fetch,
    });
    await gw.gateway.whenReady();
    expect((await status(gw)).model_ready.ok).toBe(false);
    const saved = await fetch(`${gw.url}/api/v1/settings/llm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ anthropic_api_key: 'sk-ant-test' }),
    });
    expect(saved.status).toBe(200);
    const { model_ready } = await status(gw);
    expect(model_ready.ok).toBe(true);
    expect(model_ready.detail).toContain('claude-sonnet-4-5 (anthropic is configured');
    expect(net.urls.some((url) => !url.startsWith(`http://127.0.0.1:${port}/`))).toBe(false);
  });

  it('a chat that every provider failed names hearth setup and the set-up page', async () => {
    const port = await closedPort();
    gw = await startTestGateway({
      config: {
        models: {
          primary: 'gpt-4o-mini',
          local: '',
          openai_api_key: 'sk-test',
          ollama_base_url: `http://127.0.0.1:${port}`,
        },
      },
      providerEndpoints: { openai: `http://127.0.0.1:${port}/v1` },
    });
    await gw.gateway.whenReady();
    const res = await fetch(`${gw.url}/api/v1/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hello', session_id: 'first-run' }),
      signal: AbortSignal.timeout(15_000),
    });
    expect(res.status).toBe(502);
    const { detail } = (await res.json()) as { detail: string };
    expect(detail).toMatch(/^Every provider failed: gpt-4o-mini \(openai\): /);
    expect(detail).toContain(
      "To set up a provider: run `hearth setup`, or open the web client's set-up page (/#setup).",
    );
  });
});
