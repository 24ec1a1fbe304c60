import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentHash } from './content-hash.ts';

describe('contentHash', () => {
  it('is the sha256 hex of the trimmed, space-collapsed, lower-cased text', () => {
    expect(contentHash('  Hello\t\n  Wörld\u00a0 ')).toBe(
      createHash('sha256').update('hello wörld', 'utf8').digest('hex'),
    );
    expect(contentHash('')).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });
});
