import { describe, expect, it } from 'vitest';
import { redisUrlHasPassword, redisUrlWithPassword } from './url-password.ts';

describe('the configured Redis password applied to cache_url', () => {
  it('is added to a URL without one, encoded, and the URL otherwise kept', () => {
    const url = redisUrlWithPassword('redis://redis:6379/2', 'p@ss:/word');
    expect(new URL(url).host).toBe('redis:6379');
    expect(new URL(url).pathname).toBe('/2');
    expect(decodeURIComponent(new URL(url).password)).toBe('p@ss:/word');
    expect(redisUrlHasPassword(url)).toBe(true);
  });

  it("leaves the URL's own password, an empty setting and an unparsable URL alone", () => {
    expect(redisUrlWithPassword('redis://:own@redis:6379', 'other')).toBe(
      'redis://:own@redis:6379',
    );
    expect(redisUrlWithPassword('redis://redis:6379', '')).toBe('redis://redis:6379');
    expect(redisUrlWithPassword('not a url', 'x')).toBe('not a url');
    expect(redisUrlHasPassword('redis://redis:6379')).toBe(false);
  });
});
