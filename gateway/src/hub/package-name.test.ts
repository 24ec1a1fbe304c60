import { describe, expect, it } from 'vitest';
import { isPackageName, kindFromUrl, nameFromUrl } from './package-name.ts';

describe('hub package names', () => {
  it.each(['weather', 'a', 'my_tool-2', 'x'.repeat(32)])('accepts %j', (name) => {
    expect(isPackageName(name)).toBe(true);
  });

  it.each([
    '',
    '..',
    '.hidden',
    'a/b',
    'a\\b',
    '../etc',
    'a%2fb',
    'a.b',
    '-lead',
    '_lead',
    'Upper',
    'x'.repeat(33),
    '0day',
    'caf\u00e9',
    'wеather', // Cyrillic е
    'a\u200bb',
    'a b',
    'a\u0000',
    'status',
    'search',
    'packages',
    'install',
    'scan',
  ])('refuses %j', (name) => {
    expect(isPackageName(name)).toBe(false);
  });

  it('derives a name and kind from the last path segment', () => {
    expect(nameFromUrl(new URL('https://example.org/pkgs/Weather.py?v=2'))).toBe('weather');
    expect(kindFromUrl(new URL('https://example.org/pkgs/Weather.py?v=2'))).toBe('py');
    expect(kindFromUrl(new URL('https://example.org/x/tool.mjs'))).toBe('mjs');
    expect(kindFromUrl(new URL('https://example.org/x/tool'))).toBeUndefined();
  });

  it.each([
    'https://example.org/',
    'https://example.org/a/..%2f..%2fetc.mjs',
    'https://example.org/a/%2e%2e.mjs',
    'https://example.org/tool.min.mjs',
    'https://example.org/caf%C3%A9.mjs',
    'https://example.org/status.mjs',
  ])('refuses to derive a name from %s', (url) => {
    expect(() => nameFromUrl(new URL(url))).toThrow(/name: no valid package name/);
  });
});
