/**
 * The message caps at their edges: a stdio line split anywhere, CR LF, a line of exactly the cap;
 * an SSE stream whose events are each under the cap however long it runs, and one event over.
 */
import { describe, expect, it } from 'vitest';
import { cappedFetch, OverLimitError } from './capped-fetch.ts';
import { depthOf } from './limits.ts';
import { LineSplitter } from './stdio-transport.ts';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('the stdio line splitter', () => {
  it('joins lines cut anywhere, drops a CR before LF, and keeps what is unfinished', () => {
    const lines = new LineSplitter(16);
    expect(lines.push(bytes('{"a":'))).toEqual([]);
    expect(lines.push(bytes('1}\r\n{"b":2}\n{"c"'))).toEqual(['{"a":1}', '{"b":2}']);
    expect(lines.push(bytes(':3}\n'))).toEqual(['{"c":3}']);
  });

  it('takes a line of exactly the cap and refuses one byte more, for good', () => {
    expect(new LineSplitter(4).push(bytes('abcd\n'))).toEqual(['abcd']);
    const lines = new LineSplitter(4);
    expect(lines.push(bytes('ab'))).toEqual([]);
    expect(lines.push(bytes('cde'))).toBeNull();
    expect(lines.push(bytes('\nok\n'))).toBeNull();
  });

  it('holds no more than the cap of an endless line', () => {
    const lines = new LineSplitter(1024);
    let result: string[] | null = [];
    let fed = 0;
    while (result !== null && fed < 10_000) {
      result = lines.push(Buffer.alloc(100, 0x78));
      fed += 100;
    }
    expect(result).toBeNull();
    expect(fed).toBe(1_100);
  });
});

/** A fetch answering with `chunks` under `contentType`. */
function answering(contentType: string, chunks: string[], length?: number) {
  return () =>
    Promise.resolve(
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(bytes(chunk));
            controller.close();
          },
        }),
        {
          headers: {
            'content-type': contentType,
            ...(length === undefined ? {} : { 'content-length': String(length) }),
          },
        },
      ),
    );
}

describe('the HTTP answer cap', () => {
  it('lets an SSE stream run past the cap while each event stays under it', async () => {
    const over: string[] = [];
    const event = (n: number) => `event: message\r\ndata: {"n":${n}}\r\n\r\n`;
    const chunks = Array.from({ length: 20 }, (_, n) => event(n));
    const fetch = cappedFetch(
      64,
      (detail) => over.push(detail),
      answering('text/event-stream', chunks),
    );
    const text = await (await fetch('http://x/')).text();
    expect(text.length).toBeGreaterThan(64 * 5);
    expect(over).toEqual([]);
  });

  it('fails an SSE event over the cap, even cut across chunks', async () => {
    const over: string[] = [];
    const chunks = ['data: ', 'x'.repeat(40), '\r', '\n', 'x'.repeat(40), '\n\n'];
    const fetch = cappedFetch(
      64,
      (detail) => over.push(detail),
      answering('text/event-stream', chunks),
    );
    await expect((await fetch('http://x/')).text()).rejects.toThrow(OverLimitError);
    expect(over).toEqual(['an event of more than 64 bytes']);
  });

  it('counts a JSON answer whole, and refuses a Content-Length over the cap before reading', async () => {
    const over: string[] = [];
    const json = cappedFetch(
      64,
      (detail) => over.push(detail),
      answering('application/json', ['x'.repeat(40), 'x'.repeat(40)]),
    );
    await expect((await json('http://x/')).text()).rejects.toThrow(
      'an answer of more than 64 bytes',
    );
    const declared = cappedFetch(
      64,
      (detail) => over.push(detail),
      answering('application/json', ['{}'], 65),
    );
    await expect(declared('http://x/')).rejects.toThrow('an answer of 65 bytes, over 64');
    expect(over).toEqual(['an answer of more than 64 bytes', 'an answer of 65 bytes, over 64']);
  });
});

describe('the schema depth', () => {
  it('is counted without recursion, and the walk stops past the cap', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i += 1) deep = { inner: deep };
    expect(depthOf(deep, 32)).toBe(33);
    expect(depthOf({ type: 'object', properties: { a: { type: 'string' } } }, 32)).toBe(3);
    expect(depthOf('scalar', 32)).toBe(0);
  });
});
