import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { blockedRules } from './index.ts';

const HELPERS = ['contract', 'find-blocked', 'index', 'names', 'root-use', 'scope', 'specifiers'];

describe("layer 1's rules for ES modules", () => {
  it('are one per file, each named after its file, described and listed once', () => {
    const files = readdirSync(new URL('./', import.meta.url))
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => f.slice(0, -'.ts'.length))
      .filter((name) => !HELPERS.includes(name));
    expect(blockedRules.map((rule) => rule.meta.name).sort()).toEqual(files.sort());
    for (const rule of blockedRules) expect(rule.meta.description, rule.meta.name).not.toBe('');
  });
});
