/** The gateway client over node:http behaves as it does over fetch, against a real server. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGatewayClient,
  GatewayHttpError,
  GatewayUnreachableError,
} from './gateway-client.ts';
import { httpFetch } from './http-fetch.ts';
import { freePort } from './testing/cli-harness.ts';

let server: Server;
let baseUrl: string;
const seen: { method?: string; url?: string; key?: string; type?: string; body: string }[] = [];

function handle(request: IncomingMessage, response: ServerResponse) {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  request.on('end', () => {
    seen.push({
      method: request.method,
      url: request.url,
      key: request.headers['x-api-key'] as string | undefined,
      type: request.headers['content-type'],
      body,
    });
    if (request.url === '/api/v1/status') return response.end('{"status":"ok"}');
    if (request.url === '/api/v1/echo') return response.end(body);
    if (request.url === '/api/v1/slow') return; // never answers
    if (request.url === '/api/v1/huge') {
      const block = Buffer.alloc(1_048_576, 'x');
      let sent = 0;
      const push = () => {
        while (sent < 20 && response.write(block)) sent += 1;
        if (sent < 20) response.once('drain', push);
        else response.end();
      };
      return push();
    }
    response.statusCode = 404;
    response.end('{"detail":"Not Found"}');
  });
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const client = (timeoutMs = 10_000) =>
  createGatewayClient({
    baseUrl,
    fetch: httpFetch,
    timeoutMs,
    apiKey: () => Promise.resolve('k1'),
  });

describe('httpFetch under the gateway client', () => {
  it('GETs JSON with the key, and POSTs a JSON body', async () => {
    expect(await client().getJson('/api/v1/status')).toEqual({ status: 'ok' });
    expect(await client().sendJson('POST', '/api/v1/echo', { a: 'é' })).toEqual({ a: 'é' });
    expect(seen.slice(-2)).toEqual([
      { method: 'GET', url: '/api/v1/status', key: 'k1', type: undefined, body: '' },
      {
        method: 'POST',
        url: '/api/v1/echo',
        key: 'k1',
        type: 'application/json',
        body: '{"a":"é"}',
      },
    ]);
  });

  it('an error status carries the server’s detail', async () => {
    const error = await client()
      .getJson('/api/v1/nothing')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayHttpError);
    expect((error as GatewayHttpError).status).toBe(404);
    expect((error as GatewayHttpError).detail).toBe('Not Found');
  });

  it('nothing listening: unreachable, with the system error code', async () => {
    const port = await freePort();
    const away = createGatewayClient({ baseUrl: `http://127.0.0.1:${port}`, fetch: httpFetch });
    await expect(away.getJson('/api/v1/status')).rejects.toThrow(
      new GatewayUnreachableError(`http://127.0.0.1:${port}`, {}).message.replace(
        / \(.*\)$/,
        ' (ECONNREFUSED)',
      ),
    );
    expect(await away.isAnswering()).toBe(false);
  });

  it('a server that never answers: unreachable, timed out', async () => {
    await expect(client(300).getJson('/api/v1/slow')).rejects.toThrow(/\(timed out\)$/);
  });

  it('an oversized response is refused, not buffered without end', async () => {
    await expect(client().getJson('/api/v1/huge')).rejects.toThrow(GatewayUnreachableError);
  });
});

describe('what it costs to load', () => {
  it("does not load Node's fetch stack (undici) when a request is made", async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const { fileURLToPath } = await import('node:url');
    const here = fileURLToPath(new URL('./http-fetch.ts', import.meta.url));
    const script =
      `const { httpFetch } = await import(${JSON.stringify(here)});` +
      `await httpFetch(${JSON.stringify(`${baseUrl}/api/v1/status`)}, { method: 'GET', headers: {} });` +
      `process.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => m.includes('undici'))));`;
    // Not execFileSync: the server answering the child runs in this process.
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--input-type=module',
      '-e',
      script,
    ]);
    expect(JSON.parse(stdout)).toEqual([]);
  });
});
