/** Shared by both adapters' stored-session listing (GET /sessions?stored=true). */

/** Characters of a session's first user message read for its default title. */
export const FIRST_TEXT_CHARS = 500;

/** A LIKE pattern (escape character `\`) matching text that contains `q` literally. */
export const containsPattern = (q: string): string => `%${q.replace(/[\\%_]/g, '\\$&')}%`;
