import { hash } from 'node:crypto';

/**
 * The text a content hash is taken of: trimmed, every run of whitespace (spaces, tabs,
 * newlines, Unicode spaces) collapsed to one space, lower-cased. Two texts that differ only in
 * spacing or letter case are the same memory.
 */
export function normaliseContent(text: string): string {
  return text.trim().replace(/\s+/gu, ' ').toLowerCase();
}

/**
 * sha256 (64 lower-case hex characters) of the normalised content, the `content_hash` of the
 * long-term store and `contentHash` of the short-term tier; retrieval deduplicates on it.
 */
export function contentHash(text: string): string {
  // The one-shot hash: the same digest without a Hash object per call (~25% less CPU; every
  // turn hashes its messages several times).
  return hash('sha256', normaliseContent(text), 'hex');
}
