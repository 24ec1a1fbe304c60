import { describe, expect, it } from 'vitest';
import { readOrigin } from './memory-rows.ts';

const untrusted = JSON.stringify({
  trust: 'untrusted',
  sources: [{ kind: 'browser', name: 'example.com' }],
});

describe('readOrigin', () => {
  it('reads the same stored text the same way every time, as a copy of its own', () => {
    const first = readOrigin(untrusted);
    expect(first).toEqual({
      trust: 'untrusted',
      sources: [{ kind: 'browser', name: 'example.com' }],
    });
    first.trust = 'owner';
    first.sources.push({ kind: 'mcp', name: 'changed' });
    (first.sources[0] as { name: string }).name = 'changed';
    const second = readOrigin(untrusted);
    expect(second).toEqual({
      trust: 'untrusted',
      sources: [{ kind: 'browser', name: 'example.com' }],
    });
    expect(second).not.toBe(first);
  });

  it('reads unreadable text as untrusted, every time', () => {
    for (let i = 0; i < 2; i += 1) {
      expect(readOrigin('{not json').trust).toBe('untrusted');
      expect(readOrigin(JSON.stringify({ trust: 'owner', sources: [{ kind: 'x' }] })).trust).toBe(
        'untrusted',
      );
    }
  });

  it('reads many distinct texts correctly (the kept decodings are bounded)', () => {
    for (let i = 0; i < 600; i += 1) {
      const text = JSON.stringify({
        trust: 'untrusted',
        sources: [{ kind: 'shell', name: `n${i}` }],
      });
      expect(readOrigin(text).sources[0]?.name).toBe(`n${i}`);
    }
    const long = JSON.stringify({
      trust: 'untrusted',
      sources: Array.from({ length: 16 }, (_, i) => ({
        kind: 'mcp',
        name: `${'x'.repeat(150)}${i}`,
      })),
    });
    expect(readOrigin(long).sources).toHaveLength(16);
    expect(readOrigin(JSON.parse(untrusted) as unknown).trust).toBe('untrusted');
  });
});
