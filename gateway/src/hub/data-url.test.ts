import { describe, expect, it } from 'vitest';
import { decodeDataUrl } from './data-url.ts';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

describe('data: URLs', () => {
  it('decodes base64 data', () => {
    const code = 'export const tools = [];';
    const url = `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`;
    expect(text(decodeDataUrl(url, 1024))).toBe(code);
  });

  it('decodes percent-encoded data, bytes first', () => {
    expect(text(decodeDataUrl('data:,a%20b%0Ac%C3%A9', 1024))).toBe('a b\ncé');
  });

  it('accepts an empty media type and upper-case markers', () => {
    expect(text(decodeDataUrl('DATA:;BASE64,aGk=', 1024))).toBe('hi');
  });

  it.each([
    ['data:text/plain', /needs a ","/],
    ['data:;base64,@@@@', /not valid base64/],
    ['data:;base64,a', /not valid base64/],
    ['data:,%zz', /bad percent-encoding/],
    ['data:,%4', /bad percent-encoding/],
    ['data:,caf\u00e9', /must be ASCII/],
    ['data:,a\nb', /must be ASCII/],
    ['https://example.org', /not a data: URL/],
  ])('refuses %j', (url, message) => {
    expect(() => decodeDataUrl(url, 1024)).toThrow(message);
  });

  it('refuses more decoded bytes than the cap, base64 or percent-encoded', () => {
    const big = Buffer.alloc(2048, 'a');
    expect(() => decodeDataUrl(`data:;base64,${big.toString('base64')}`, 1024)).toThrow(
      /larger than the hub's limit of 1024 bytes/,
    );
    expect(() => decodeDataUrl(`data:,${'a'.repeat(1025)}`, 1024)).toThrow(/larger/);
    // 1024 bytes written as 3072 characters of %61: within the cap once decoded.
    expect(decodeDataUrl(`data:,${'%61'.repeat(1024)}`, 1024)).toHaveLength(1024);
  });
});
