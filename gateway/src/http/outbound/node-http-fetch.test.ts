import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  createServer as createTcpServer,
  type AddressInfo,
  type Server as TcpServer,
  type Socket,
} from 'node:net';
import { createServer as createHttpsServer } from 'node:https';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { hasOpenssl, selfSignedCertificate } from '../../hub/testing/https-fixture.ts';
import { createNodeHttpFetch, type NodeHttpFetch } from './node-http-fetch.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  remotePort: number;
}

/** A far end on 127.0.0.1 with one route per behaviour under test; it records what it got. */
function startFarEnd() {
  const seen: Seen[] = [];
  const closed: string[] = [];
  let releaseSecond: () => void = () => undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
        remotePort: req.socket.remotePort ?? 0,
      });
      route(req, res);
    });
  });
  function route(req: IncomingMessage, res: ServerResponse): void {
    const path = req.url ?? '/';
    res.once('close', () => closed.push(path));
    if (path === '/json')
      return void res
        .writeHead(201, 'Made', { 'content-type': 'application/json', 'x-twice': ['a', 'b'] })
        .end('{"ok":true}');
    if (path === '/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      // The second event waits until the test has read the first: the body streams.
      releaseSecond = () => res.end('data: two\n\n');
      return;
    }
    if (path === '/gzip')
      return void res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('zipped'));
    if (path === '/deflate')
      return void res
        .writeHead(200, { 'content-encoding': 'deflate' })
        .end(deflateSync('deflated'));
    if (path === '/br')
      return void res
        .writeHead(200, { 'content-encoding': 'br' })
        .end(brotliCompressSync('brotli'));
    if (path === '/empty') return void res.writeHead(204).end();
    if (path === '/redirect') return void res.writeHead(302, { location: '/json' }).end('moved');
    if (path === '/redirect-307') return void res.writeHead(307, { location: '/json' }).end();
    if (path === '/away') return void res.writeHead(302, { location: awayTo }).end();
    if (path === '/to-data') return void res.writeHead(302, { location: 'data:,hi' }).end();
    if (path === '/silent') return; // never answers
    if (path === '/cut') {
      res.writeHead(200, { 'content-length': '100' });
      res.write('only part');
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    if (path === '/endless') {
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      res.writeHead(200);
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) written.endless += chunk.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
      return;
    }
    if (path === '/huge-headers')
      return void res.writeHead(200, { 'x-big': 'x'.repeat(64 * 1024) }).end('never read');
    res.writeHead(404).end();
  }
  const written = { endless: 0 };
  let awayTo = '';
  return {
    server,
    seen,
    closed,
    written,
    release: () => releaseSecond(),
    /** Where `/away` redirects to (another origin). */
    redirectAwayTo: (url: string) => (awayTo = url),
  };
}

/** A far end that answers any request with bytes that are not HTTP. */
function startGarbageEnd(): Promise<TcpServer> {
  const server = createTcpServer((socket) => {
    socket.once('data', () => socket.end('SMTP ready, not HTTP at all\r\n\r\n'));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const nodeFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);

describe('outbound fetch over node:http', () => {
  let farEnd: ReturnType<typeof startFarEnd>;
  let base: string;
  let client: NodeHttpFetch;
  const fallback = vi.fn(nodeFetch);

  beforeAll(async () => {
    farEnd = startFarEnd();
    await new Promise<void>((resolve) => farEnd.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(farEnd.server.address() as AddressInfo).port}`;
    client = createNodeHttpFetch({ fallback, env: {} });
  });
  afterEach(() => fallback.mockClear());
  afterAll(async () => {
    client.close();
    farEnd.server.closeAllConnections();
    await new Promise((resolve) => farEnd.server.close(resolve));
  });

  it('sends the method, headers and body, and answers with a Fetch API Response', async () => {
    const response = await client.fetch(`${base}/json`, {
      method: 'post',
      headers: { 'Content-Type': 'application/json', 'X-Key': 'k1', 'X-Unset': undefined } as never,
      body: JSON.stringify({ hello: 'wörld' }),
    });
    const got = farEnd.seen.at(-1) as Seen;
    expect(got.method).toBe('POST');
    expect(got.body).toBe('{"hello":"wörld"}');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['content-length']).toBe(String(Buffer.byteLength(got.body)));
    expect(got.headers['x-key']).toBe('k1');
    expect(got.headers['x-unset']).toBeUndefined();
    expect(got.headers.accept).toBe('*/*');
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(201);
    expect(response.statusText).toBe('Made');
    expect(response.ok).toBe(true);
    expect(response.url).toBe(`${base}/json`);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-twice')).toBe('a, b');
    expect(await response.json()).toEqual({ ok: true });
    expect(fallback).not.toHaveBeenCalled();
  });

  it('takes headers as a Headers object or pairs, and bytes as the body', async () => {
    await client.fetch(new URL(`${base}/json`), {
      method: 'PUT',
      headers: new Headers({ 'x-from': 'headers' }),
      body: new TextEncoder().encode('bytes'),
    });
    expect(farEnd.seen.at(-1)).toMatchObject({ method: 'PUT', body: 'bytes' });
    expect(farEnd.seen.at(-1)?.headers['x-from']).toBe('headers');
    await client.fetch(`${base}/json`, {
      headers: [
        ['x-pair', 'one'],
        ['X-Pair', 'two'],
      ],
    });
    expect(farEnd.seen.at(-1)?.headers['x-pair']).toBe('one, two');
    expect(fallback).not.toHaveBeenCalled();
  });

  it('streams the body as it arrives', async () => {
    const response = await client.fetch(`${base}/stream`);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    const first = await reader.read();
    expect(decoder.decode(first.value)).toBe('data: one\n\n');
    farEnd.release();
    let rest = '';
    for (let part = await reader.read(); !part.done; part = await reader.read())
      rest += decoder.decode(part.value);
    expect(rest).toBe('data: two\n\n');
  });

  it('keeps the connection for the next request', async () => {
    await (await client.fetch(`${base}/json`)).text();
    const first = farEnd.seen.at(-1)?.remotePort;
    await (await client.fetch(`${base}/json`)).text();
    expect(farEnd.seen.at(-1)?.remotePort).toBe(first);
  });

  it.each([
    ['/gzip', 'zipped'],
    ['/deflate', 'deflated'],
    ['/br', 'brotli'],
  ])('decodes a compressed body (%s), as Node’s fetch does', async (path, text) => {
    const response = await client.fetch(`${base}${path}`);
    expect(await response.text()).toBe(text);
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(farEnd.seen.at(-1)?.headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it('gives no body for HEAD or a 204', async () => {
    expect((await client.fetch(`${base}/json`, { method: 'HEAD' })).body).toBeNull();
    const empty = await client.fetch(`${base}/empty`);
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
  });

  it('rejects a refused connection as Node’s fetch does: TypeError with the socket error as cause', async () => {
    const spare = createTcpServer();
    await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
    const port = (spare.address() as AddressInfo).port;
    await new Promise((resolve) => spare.close(resolve));
    const url = `http://127.0.0.1:${port}/`;
    const ours = await client.fetch(url).catch((error: unknown) => error);
    const nodes = await nodeFetch(url).catch((error: unknown) => error);
    for (const error of [ours, nodes]) {
      expect(error).toBeInstanceOf(TypeError);
      expect((error as TypeError).message).toBe('fetch failed');
      expect(((error as TypeError).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
    }
  });

  it('rejects with the signal’s reason when aborted before, or while waiting for, the answer', async () => {
    const before = new AbortController();
    before.abort();
    await expect(client.fetch(`${base}/json`, { signal: before.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });

    const waiting = new AbortController();
    const pending = client.fetch(`${base}/silent`, { signal: waiting.signal });
    await vi.waitFor(() => expect(farEnd.seen.at(-1)?.url).toBe('/silent'));
    const reason = new Error('the turn was stopped');
    waiting.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await vi.waitFor(() => expect(farEnd.closed).toContain('/silent'));
  });

  it('errors the body with the signal’s reason when aborted while reading it', async () => {
    const controller = new AbortController();
    const response = await client.fetch(`${base}/stream`, { signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
    farEnd.release();
  });

  it('errors the body when the far end cuts it short', async () => {
    const response = await client.fetch(`${base}/cut`);
    const error = await response.text().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('terminated');
  });

  it('rejects an answer that is not HTTP, or whose headers are oversized', async () => {
    const garbage = await startGarbageEnd();
    try {
      const url = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}/`;
      const error = await client.fetch(url).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as TypeError).message).toBe('fetch failed');
      expect((error as TypeError).cause).toBeInstanceOf(Error);
    } finally {
      await new Promise((resolve) => garbage.close(resolve));
    }
    const huge = await client.fetch(`${base}/huge-headers`).catch((caught: unknown) => caught);
    expect(huge).toBeInstanceOf(TypeError);
    expect(((huge as TypeError).cause as NodeJS.ErrnoException).code).toBe('HPE_HEADER_OVERFLOW');
  });

  it('reads only as fast as the reader asks, and a cancel closes the connection', async () => {
    const response = await client.fetch(`${base}/endless`);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    // The far end fills the socket buffers and then waits: nothing unread piles up here.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(farEnd.written.endless).toBeLessThan(32 * 1024 * 1024);
    await reader.cancel();
    await vi.waitFor(() => expect(farEnd.closed).toContain('/endless'));
  });

  it('fails a request whose connection stays silent past the idle timeout', async () => {
    const impatient = createNodeHttpFetch({ fallback, env: {}, idleTimeoutMs: 100 });
    try {
      const error = await impatient.fetch(`${base}/silent`).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TypeError);
      expect(((error as TypeError).cause as Error).message).toMatch(/No data from .* in 100 ms/);
    } finally {
      impatient.close();
    }
  });

  it('follows a redirect as fetch does, sending the answered request only once', async () => {
    const before = farEnd.seen.length;
    const followed = await client.fetch(`${base}/redirect`, { method: 'POST', body: 'again' });
    expect(followed.status).toBe(201);
    expect(followed.redirected).toBe(true);
    expect(followed.url).toBe(`${base}/json`);
    // A 302 after a POST is a GET without the body; the POST itself went once.
    expect(farEnd.seen.slice(before).map((r) => [r.method, r.url, r.body])).toEqual([
      ['POST', '/redirect', 'again'],
      ['GET', '/json', ''],
    ]);
    expect(farEnd.seen.at(-1)?.headers['content-type']).toBeUndefined();
    // A 307 keeps the method and the body.
    await client.fetch(`${base}/redirect-307`, { method: 'PUT', body: 'kept' });
    expect(farEnd.seen.slice(-2).map((r) => [r.method, r.url, r.body])).toEqual([
      ['PUT', '/redirect-307', 'kept'],
      ['PUT', '/json', 'kept'],
    ]);
    expect(fallback).toHaveBeenCalledTimes(2);
    const manual = await client.fetch(`${base}/redirect`, { redirect: 'manual' });
    expect(manual.status).toBe(302);
    expect(manual.headers.get('location')).toBe('/json');
    expect(await manual.text()).toBe('moved');
  });

  it('keeps the credentials on its own origin only, and follows no redirect out of http(s)', async () => {
    const away = startFarEnd();
    await new Promise<void>((resolve) => away.server.listen(0, '127.0.0.1', resolve));
    try {
      farEnd.redirectAwayTo(`http://127.0.0.1:${(away.server.address() as AddressInfo).port}/json`);
      const credentials = { authorization: 'Bearer sk-secret', cookie: 'id=1', 'x-other': 'kept' };
      await client.fetch(`${base}/redirect`, { headers: credentials });
      expect(farEnd.seen.at(-1)?.headers.authorization).toBe('Bearer sk-secret');
      await client.fetch(`${base}/away`, { headers: credentials });
      const there = away.seen.at(-1);
      expect(there?.headers.authorization).toBeUndefined();
      expect(there?.headers.cookie).toBeUndefined();
      expect(there?.headers['x-other']).toBe('kept');
    } finally {
      away.server.closeAllConnections();
      await new Promise((resolve) => away.server.close(resolve));
    }
    const error = await client.fetch(`${base}/to-data`).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect(((error as TypeError).cause as Error).message).toMatch(/data:,hi, which is no http/);
  });

  it('leaves to Node’s fetch what it does not take', async () => {
    const form = new FormData();
    form.set('field', 'value');
    await client.fetch(`${base}/json`, { method: 'POST', body: form });
    await client.fetch(new Request(`${base}/json`));
    await client.fetch('data:text/plain,hi');
    await client.fetch(`${base}/json`, { redirect: 'error' });
    expect(fallback).toHaveBeenCalledTimes(4);
    expect(farEnd.seen.at(-3)?.headers['content-type']).toMatch(/^multipart\/form-data/);
  });

  it('leaves every request to Node’s fetch while a proxy is set in the environment', async () => {
    const proxied = createNodeHttpFetch({ fallback, env: { HTTPS_PROXY: 'http://proxy:3128' } });
    await proxied.fetch(`${base}/json`);
    expect(fallback).toHaveBeenCalledTimes(1);
    proxied.close();
  });

  it('closes its idle connections on close()', async () => {
    const connections = new Map<number, Socket>();
    const track = (socket: Socket) => connections.set(socket.remotePort ?? 0, socket);
    farEnd.server.on('connection', track);
    try {
      const own = createNodeHttpFetch({ fallback, env: {} });
      await (await own.fetch(`${base}/json`)).text();
      const socket = connections.get(farEnd.seen.at(-1)?.remotePort ?? -1);
      expect(socket?.destroyed).toBe(false);
      const closed = once(socket as Socket, 'close');
      own.close();
      await closed;
    } finally {
      farEnd.server.off('connection', track);
    }
  });

  describe.skipIf(!hasOpenssl())(
    'over TLS (skipped without openssl, which makes the test certificate)',
    () => {
      it('checks the certificate: trusted, the answer; not trusted, fetch failed with the TLS error', async () => {
        const certificate = selfSignedCertificate();
        const tls = createHttpsServer(certificate, (_req, res) => res.end('over tls'));
        await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
        const url = `https://127.0.0.1:${(tls.address() as AddressInfo).port}/`;
        const trusting = createNodeHttpFetch({ fallback, env: {}, ca: certificate.cert });
        try {
          expect(await (await trusting.fetch(url)).text()).toBe('over tls');
          const error = await client.fetch(url).catch((caught: unknown) => caught);
          expect(error).toBeInstanceOf(TypeError);
          expect((error as TypeError).message).toBe('fetch failed');
          expect(((error as TypeError).cause as NodeJS.ErrnoException).code).toMatch(/SELF_SIGNED/);
          expect(fallback).not.toHaveBeenCalled();
        } finally {
          trusting.close();
          tls.closeAllConnections();
          await new Promise((resolve) => tls.close(resolve));
        }
      });
    },
  );
});
