import { describe, expect, it } from 'vitest';
import {
  decodeOrigin,
  defaultEntryOrigin,
  defaultItemOrigin,
  HEARTH_ORIGIN,
  isUntrusted,
  leastTrusted,
  MAX_ORIGIN_SOURCES,
  normaliseOrigin,
  OWNER_ORIGIN,
  UNREADABLE_ORIGIN,
  type MemoryOrigin,
} from './origin.ts';

const page = (name: string): MemoryOrigin => ({
  trust: 'untrusted',
  sources: [{ kind: 'browser', name }],
});

describe('memory origin', () => {
  it('orders trust untrusted < hearth < owner; the least trusted wins', () => {
    expect(leastTrusted([OWNER_ORIGIN, HEARTH_ORIGIN])).toEqual({ trust: 'hearth', sources: [] });
    expect(leastTrusted([OWNER_ORIGIN, OWNER_ORIGIN])).toEqual({ trust: 'owner', sources: [] });
    expect(leastTrusted([OWNER_ORIGIN, page('example.com'), HEARTH_ORIGIN])).toEqual(
      page('example.com'),
    );
    expect(leastTrusted([undefined, null])).toEqual({ trust: 'owner', sources: [] });
    expect(leastTrusted([], HEARTH_ORIGIN)).toEqual({ trust: 'hearth', sources: [] });
  });

  it('joins the sources of untrusted origins, each once, capped', () => {
    const mcp: MemoryOrigin = { trust: 'untrusted', sources: [{ kind: 'mcp', name: 'files' }] };
    expect(leastTrusted([page('a.test'), mcp, page('a.test')])).toEqual({
      trust: 'untrusted',
      sources: [
        { kind: 'browser', name: 'a.test' },
        { kind: 'mcp', name: 'files' },
      ],
    });
    const many = Array.from({ length: MAX_ORIGIN_SOURCES + 5 }, (_, i) => page(`p${i}.test`));
    const joined = leastTrusted(many);
    expect(joined.sources).toHaveLength(MAX_ORIGIN_SOURCES);
    expect(joined.sources[0]).toEqual({ kind: 'browser', name: 'p0.test' });
  });

  it('never hands out the shared constants, so callers cannot change them', () => {
    const copy = leastTrusted([OWNER_ORIGIN]);
    copy.sources.push({ kind: 'shell', name: 'x' });
    expect(OWNER_ORIGIN.sources).toEqual([]);
    expect(defaultEntryOrigin('note')).not.toBe(OWNER_ORIGIN);
  });

  it('says whether an origin is untrusted', () => {
    expect(isUntrusted(page('x'))).toBe(true);
    expect(isUntrusted(HEARTH_ORIGIN)).toBe(false);
    expect(isUntrusted(undefined)).toBe(false);
  });

  it('defaults: notes and user messages are the owner’s, the rest Hearth’s', () => {
    expect(defaultEntryOrigin('note')).toEqual(OWNER_ORIGIN);
    for (const type of ['turn', 'summary', 'archive', 'orchestrator', undefined])
      expect(defaultEntryOrigin(type)).toEqual(HEARTH_ORIGIN);
    expect(defaultItemOrigin('user')).toEqual(OWNER_ORIGIN);
    expect(defaultItemOrigin('note')).toEqual(OWNER_ORIGIN);
    expect(defaultItemOrigin('assistant')).toEqual(HEARTH_ORIGIN);
    expect(defaultItemOrigin('summary')).toEqual(HEARTH_ORIGIN);
  });

  it('refuses malformed origins instead of storing them as something else', () => {
    const bad = [
      { trust: 'stranger', sources: [] },
      { trust: 'owner', sources: [{ kind: 'browser', name: 'x' }] },
      { trust: 'untrusted', sources: [{ kind: 'radio', name: 'x' }] },
      { trust: 'untrusted', sources: [{ kind: 'browser' }] },
    ];
    for (const origin of bad)
      expect(() => normaliseOrigin(origin as unknown as MemoryOrigin)).toThrow(TypeError);
  });

  it('trims what it keeps: long names and too many sources', () => {
    const long = normaliseOrigin({
      trust: 'untrusted',
      sources: [
        { kind: 'browser', name: 'x'.repeat(500) },
        ...Array.from({ length: 30 }, (_, i) => ({ kind: 'mcp' as const, name: `s${i}` })),
      ],
    });
    expect(long.sources).toHaveLength(MAX_ORIGIN_SOURCES);
    expect(long.sources[0]?.name).toHaveLength(200);
  });

  it('reads stored origins back; legacy NULL as the given default; garbage as untrusted', () => {
    const stored = JSON.stringify(page('example.com'));
    expect(decodeOrigin(stored, OWNER_ORIGIN)).toEqual(page('example.com'));
    expect(decodeOrigin(page('example.com'), OWNER_ORIGIN)).toEqual(page('example.com'));
    expect(decodeOrigin(null, OWNER_ORIGIN)).toEqual(OWNER_ORIGIN);
    expect(decodeOrigin(undefined, HEARTH_ORIGIN)).toEqual(HEARTH_ORIGIN);
    expect(decodeOrigin('{not json', OWNER_ORIGIN)).toEqual(UNREADABLE_ORIGIN);
    expect(decodeOrigin({ trust: 'root' }, OWNER_ORIGIN)).toEqual(UNREADABLE_ORIGIN);
    expect(isUntrusted(decodeOrigin(42, OWNER_ORIGIN))).toBe(true);
  });
});
