import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeLlmServer } from '../testing/fakes/fake-llm/server.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';
import { isUnreachable, redactUrls } from './no-runtime-hint.ts';

/** A loopback port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function chat(gw: TestGateway): Promise<{ status: number; detail: string }> {
  await gw.gateway.whenReady();
  const response = await fetch(`${gw.url}/api/v1/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'hello', session_id: 'first-run' }),
    signal: AbortSignal.timeout(15_000),
  });
  return {
    status: response.status,
    detail: ((await response.json()) as { detail: string }).detail,
  };
}

/**
 * A newcomer's first chat with no reachable LLM: the default configuration routes to the local
 * runtime (Ollama); when nothing answers there, the error says what to do next.
 */
describe('chat with no reachable LLM', () => {
  let gw: TestGateway | undefined;
  afterEach(async () => {
    await gw?.close();
    gw = undefined;
  });

  it('says to start Ollama at the configured URL or to configure a provider', async () => {
    const port = await closedPort();
    gw = await startTestGateway({
      config: { models: { ollama_base_url: `http://127.0.0.1:${port}` } },
    });
    const { status, detail } = await chat(gw);
    expect(status).toBe(502);
    expect(detail).toMatch(/^Every provider failed: ollama\/llama3\.2 \(ollama\): /);
    expect(detail).toContain(
      `Start Ollama at http://127.0.0.1:${port}, or configure a provider: run \`hearth setup\`, ` +
        "or open the web client's set-up page (/#setup) (or POST /api/v1/settings/llm).",
    );
  });

  it('never shows credentials of the runtime URL, in the hint or in the attempt chain', async () => {
    const port = await closedPort();
    gw = await startTestGateway({
      config: {
        models: { ollama_base_url: `http://admin:hunter2@127.0.0.1:${port}/ollama?token=s3cret` },
      },
    });
    const { status, detail } = await chat(gw);
    expect(status).toBe(502);
    expect(detail).toMatch(/^Every provider failed: ollama\/llama3\.2 \(ollama\): /);
    expect(detail).not.toContain('hunter2');
    expect(detail).not.toContain('admin:');
    expect(detail).not.toContain('s3cret');
  });

  it('gives no runtime hint when the runtime answered (with an error)', async () => {
    const fake = await createFakeLlmServer();
    try {
      fake.reply({ error: { status: 404, message: 'model "llama3.2" not found' } });
      gw = await startTestGateway({
        config: { models: { ollama_base_url: fake.url } },
        providerEndpoints: { ollama: fake.url },
      });
      const { status, detail } = await chat(gw);
      expect(status).toBe(502);
      expect(detail).toMatch(
        /^Every provider failed: ollama\/llama3\.2 \(ollama\): 404 .*not found/,
      );
      expect(detail).not.toContain('Start Ollama');
    } finally {
      await gw?.close();
      gw = undefined;
      await fake.close();
    }
  });
});

describe('URLs in provider errors', () => {
  it('lose user info, query and fragment; the rest of the text stays', () => {
    expect(
      redactUrls(
        'failed: https://bob:pw@api.example.com/v1/chat?key=k1#x then http://[::1]:11434/api?t=2.',
      ),
    ).toBe('failed: https://api.example.com/v1/chat then http://[::1]:11434/api');
    expect(redactUrls('no url here')).toBe('no url here');
    expect(redactUrls('odd http://user:pw@[bad/x')).toBe('odd http://…');
  });

  it('a connection failure is recognised through the cause chain, other errors are not', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(isUnreachable(new Error('fetch failed', { cause: refused }))).toBe(true);
    expect(isUnreachable(new AggregateError([refused]))).toBe(true);
    expect(isUnreachable(new Error('500 Internal Server Error'))).toBe(false);
    const loop: { cause?: unknown } = {};
    loop.cause = loop;
    expect(isUnreachable(loop)).toBe(false);
  });
});
