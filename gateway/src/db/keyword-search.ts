import type { KeywordSearchInfo } from './database.ts';

/** The /status `backends.keyword_search` text: the index in use, or why searches scan. */
export function describeKeywordSearch(info: KeywordSearchInfo): string {
  if (info.indexed) return info.method;
  return info.reason ? `scan (${info.reason})` : 'scan';
}
