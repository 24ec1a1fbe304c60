import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { jsScanRules } from './index.ts';

const HELPERS = ['ast', 'calls', 'contract', 'globals', 'index', 'run-rules'];

describe('the scanner rules for ES modules', () => {
  it('are one per file, each named after its file and listed once', () => {
    const files = readdirSync(new URL('./', import.meta.url))
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => f.slice(0, -'.ts'.length))
      .filter((name) => !HELPERS.includes(name));
    expect(jsScanRules.map((rule) => rule.meta.name).sort()).toEqual(files.sort());
  });

  it('each declare their findings; no finding id belongs to two rules', () => {
    const owners = new Map<string, string>();
    for (const rule of jsScanRules) {
      expect(rule.meta.description, rule.meta.name).not.toBe('');
      for (const id of Object.keys(rule.meta.findings)) {
        expect(owners.get(id), id).toBeUndefined();
        owners.set(id, rule.meta.name);
      }
    }
  });
});
