import { describe, expect, it } from 'vitest';
import { describeKeywordSearch } from './keyword-search.ts';

describe('describeKeywordSearch', () => {
  it.each([
    [{ indexed: true, method: 'fts5-trigram' as const }, 'fts5-trigram'],
    [{ indexed: true, method: 'pg_trgm' as const }, 'pg_trgm'],
    [
      { indexed: false, method: 'scan' as const, reason: 'extension pg_trgm is not available' },
      'scan (extension pg_trgm is not available)',
    ],
    [{ indexed: false, method: 'scan' as const }, 'scan'],
  ])('%o → %s', (info, text) => {
    expect(describeKeywordSearch(info)).toBe(text);
  });
});
