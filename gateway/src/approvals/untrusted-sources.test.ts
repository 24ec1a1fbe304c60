import { describe, expect, it } from 'vitest';
import { MAX_SOURCES, shownSources, sourcesLine } from './untrusted-sources.ts';

describe('the untrusted sources an approval names', () => {
  it('each kind and name once (the first excerpt), at most MAX_SOURCES, cleaned', () => {
    const shown = shownSources([
      { kind: 'mcp', name: 'gh__issues', excerpt: 'first' },
      { kind: 'mcp', name: 'gh__issues', excerpt: 'second' },
      { kind: 'browser', name: 'https://a/\u001b[2J', excerpt: 'line\none' },
      ...Array.from({ length: 20 }, (_, i) => ({
        kind: 'skill' as const,
        name: `tool_${i}`,
        excerpt: 'x',
      })),
    ]);
    expect(shown).toHaveLength(MAX_SOURCES);
    expect(shown.slice(0, 2)).toEqual([
      { kind: 'mcp', name: 'gh__issues', excerpt: 'first' },
      { kind: 'browser', name: 'https://a/ [2J', excerpt: 'line one' },
    ]);
    expect(sourcesLine(shown.slice(0, 2))).toBe(
      'The agent had read untrusted content: mcp gh__issues, browser https://a/ [2J',
    );
  });
});
