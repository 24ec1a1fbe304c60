import { describe, expect, it } from 'vitest';
import { DENIED_TEXT } from '../approvals/ports.ts';
import type { RetrievedMemory } from '../memory/ports.ts';
import { createProvenanceLedger, shellOutputIsLocal } from './provenance.ts';

const memory = (content: string, origin?: unknown): RetrievedMemory =>
  ({ content, contentHash: content, source: 'long-term', score: 1, origin }) as RetrievedMemory;

describe('shell output provenance', () => {
  it.each([
    'pwd',
    'date -u',
    'echo hi && wc -l notes.txt',
    'LANG=C uname -a; whoami',
    '/bin/echo one | /usr/bin/wc -c',
    '   ',
  ])('%s prints only what the machine or its arguments say', (command) => {
    expect(shellOutputIsLocal(command)).toBe(true);
  });

  it.each([
    'cat notes.txt',
    'curl https://example.com',
    'echo hi | cat',
    'ls',
    'git log',
    'echo $(cat secret)',
    'echo `id`',
    'wc -l < downloaded.txt',
    'echo ${HOME}',
    'python3 -c "print(1)"',
  ])('%s can print data the owner did not write', (command) => {
    expect(shellOutputIsLocal(command)).toBe(false);
  });
});

describe('the provenance ledger', () => {
  it('records tool results by origin; Hearth built-ins and denied calls add nothing', () => {
    const ledger = createProvenanceLedger();
    const clean = ledger.sources();
    ledger.toolResult({ name: 'current_time', source: 'builtin' }, {}, '12:00');
    ledger.toolResult({ name: 'shell', source: 'builtin' }, { command: 'pwd' }, '/home');
    ledger.toolResult({ name: 'shell', source: 'builtin' }, { command: 'curl x' }, DENIED_TEXT);
    ledger.toolResult({ name: 'browser', source: 'builtin' }, { url: 'https://a' }, DENIED_TEXT);
    expect(ledger.sources()).toEqual([]);
    // Nothing added: the very same (empty) view, no copy per call.
    expect(ledger.sources()).toBe(clean);

    ledger.toolResult({ name: 'browser', source: 'builtin' }, { url: 'https://a/' }, 'page');
    ledger.toolResult({ name: 'gh__issues', source: 'mcp:gh' }, {}, 'issue text');
    ledger.toolResult({ name: 'weather_now', source: 'skill:weather' }, {}, 'sunny');
    ledger.toolResult({ name: 'pkg_tool', source: 'hub:pkg' }, {}, 'hub text');
    ledger.toolResult({ name: 'shell', source: 'builtin' }, { command: 'cat a' }, 'file');
    expect(ledger.sources()).toEqual([
      { kind: 'browser', name: 'https://a/', excerpt: 'page' },
      { kind: 'mcp', name: 'gh__issues', excerpt: 'issue text' },
      { kind: 'skill', name: 'weather_now', excerpt: 'sunny' },
      { kind: 'skill', name: 'pkg_tool', excerpt: 'hub text' },
      { kind: 'shell', name: 'cat a', excerpt: 'file' },
    ]);
  });

  it('caps excerpts at 200 characters and strips control and bidi characters', () => {
    const ledger = createProvenanceLedger();
    const long = `\u001b[31mred\u202e\u0000 ${'x'.repeat(1000)}`;
    ledger.toolResult({ name: 'weather_now', source: 'skill:weather' }, {}, long);
    const [source] = ledger.sources();
    expect(source?.excerpt).toHaveLength(200);
    expect(source?.excerpt.startsWith('[31mred x')).toBe(true);
    expect(source?.excerpt.endsWith('…')).toBe(true);
    // eslint-disable-next-line no-control-regex
    expect(source?.excerpt).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
  });

  it('records recalled memories with an untrusted origin only', () => {
    const ledger = createProvenanceLedger();
    ledger.memories([
      memory('plain'),
      memory('owner said', { trust: 'owner', sources: [] }),
      memory('from a page', { trust: 'untrusted', sources: [{ kind: 'browser', name: 'u' }] }),
      memory('from a name', { trust: 'untrusted', sources: [{ kind: 'mcp', name: 'gh__issues' }] }),
      memory('no sources', { trust: 'untrusted', sources: [] }),
    ]);
    expect(ledger.sources()).toEqual([
      { kind: 'memory', name: 'browser u', excerpt: 'from a page' },
      { kind: 'memory', name: 'mcp gh__issues', excerpt: 'from a name' },
      { kind: 'memory', name: 'memory', excerpt: 'no sources' },
    ]);
  });
});
