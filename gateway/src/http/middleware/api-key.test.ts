import { describe, expect, it } from 'vitest';
import { keyMatcher, keyMatches } from './api-key.ts';

describe('keyMatcher', () => {
  it('gives the verdicts of keyMatches for the key it was made for', () => {
    const matches = keyMatcher('s3cret-key');
    for (const given of [undefined, '', 's3cret-key', 's3cret-ke', 's3cret-key ', 'S3CRET-KEY'])
      expect(matches(given)).toBe(keyMatches(given, 's3cret-key'));
    expect(matches('s3cret-key')).toBe(true);
    expect(matches(undefined)).toBe(false);
  });
});
