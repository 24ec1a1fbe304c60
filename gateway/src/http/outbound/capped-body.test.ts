import { createServer, get, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodyTooLargeError, cappedFetch, readIncomingCapped } from './capped-body.ts';

/** A far end on 127.0.0.1: `/endless` streams until the client goes away, and records it. */
function startFarEnd() {
  const seen = { endlessClosedAfterBytes: -1 };
  // 16 MiB of zeros, about 16 KiB on the wire.
  const bomb = gzipSync(Buffer.alloc(16 * 1024 * 1024));
  const server = createServer((req, res) => {
    if (req.url === '/endless') return endless(res);
    if (req.url === '/declared')
      return res.writeHead(200, { 'content-length': String(10 * 1024 * 1024) }).end();
    if (req.url === '/bomb') return res.writeHead(200, { 'content-encoding': 'gzip' }).end(bomb);
    if (req.url === '/empty') return res.writeHead(204).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  function endless(res: ServerResponse): void {
    const chunk = Buffer.alloc(16 * 1024, 0x61);
    let written = 0;
    res.writeHead(200, { 'content-type': 'application/json' });
    const pump = () => {
      while (!res.destroyed && res.write(chunk)) written += chunk.length;
      if (!res.destroyed) res.once('drain', pump);
    };
    res.once('close', () => (seen.endlessClosedAfterBytes = written));
    pump();
  }
  return { server, seen };
}

describe('far-end bodies are counted as they stream, and aborted over the cap', () => {
  let server: Server;
  let seen: { endlessClosedAfterBytes: number };
  let base: string;
  beforeAll(async () => {
    ({ server, seen } = startFarEnd());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('an endless answer fails at the cap, is counted, and its connection is closed', async () => {
    let over = 0;
    const fetch = cappedFetch(globalThis.fetch, {
      maxBytes: 64 * 1024,
      what: 'the test answer',
      onOver: () => (over += 1),
    });
    const response = await fetch(`${base}/endless`);
    const error = await response.text().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BodyTooLargeError);
    expect((error as Error).message).toBe(
      'the test answer is larger than 65536 bytes: reading it was aborted',
    );
    expect(over).toBe(1);
    // The far end sees its connection go: it stops being able to write.
    await expect.poll(() => seen.endlessClosedAfterBytes, { timeout: 5_000 }).toBeGreaterThan(0);
    expect(seen.endlessClosedAfterBytes).toBeLessThan(16 * 1024 * 1024);
  });

  it('a declared Content-Length over the cap fails before a byte is read', async () => {
    const fetch = cappedFetch(globalThis.fetch, { maxBytes: 1024, what: 'the declared answer' });
    await expect(fetch(`${base}/declared`)).rejects.toThrow(
      'the declared answer is larger than 1024 bytes',
    );
  });

  it('a compressed answer is counted as it inflates (a gzip bomb stops at the cap)', async () => {
    const fetch = cappedFetch(globalThis.fetch, { maxBytes: 1024 * 1024, what: 'the bomb' });
    const response = await fetch(`${base}/bomb`);
    await expect(response.arrayBuffer()).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it('answers under the cap, and bodiless ones, arrive whole', async () => {
    const fetch = cappedFetch(globalThis.fetch, { maxBytes: 1024, what: 'a small answer' });
    const response = await fetch(`${base}/small`);
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${base}/small`);
    expect(await response.json()).toEqual({ ok: true });
    expect((await fetch(`${base}/empty`)).status).toBe(204);
  });

  it('node:http responses are counted the same way', async () => {
    const read = (path: string, maxBytes: number) =>
      new Promise<Buffer>((resolve, reject) => {
        get(`${base}${path}`, (response) => {
          readIncomingCapped(response, { maxBytes, what: 'the node answer' }).then(resolve, reject);
        }).on('error', reject);
      });
    expect((await read('/small', 1024)).toString()).toBe('{"ok":true}');
    await expect(read('/endless', 32 * 1024)).rejects.toThrow(
      'the node answer is larger than 32768 bytes',
    );
    await expect(read('/declared', 1024)).rejects.toBeInstanceOf(BodyTooLargeError);
  });
});
