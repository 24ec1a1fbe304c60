import { validationError } from '../errors.ts';

/** An https URL, or a data: URL kept as its text (WHATWG parsing would re-encode it). */
export type PackageUrl = { kind: 'https'; url: URL } | { kind: 'data'; text: string };

export const MAX_HTTPS_URL_LENGTH = 2048;

/**
 * The only URLs the hub fetches from: `https:` and `data:`. Every other scheme (plain `http:`,
 * `file:`, `ftp:`, `javascript:` …) is a 422 before anything is fetched, and so is an https URL
 * with credentials in it (they would be stored as the package's origin).
 */
export function parsePackageUrl(text: string): PackageUrl {
  // The URL parser would drop them silently; what is fetched must be what was written.
  if (text !== text.trim()) throw validationError('url: must not start or end with spaces');
  if (/^data:/i.test(text)) return { kind: 'data', text };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw validationError('url: not a valid URL');
  }
  if (url.protocol !== 'https:')
    throw validationError(
      `url: only https: (or data:) URLs are accepted, not ${url.protocol.replace(/:$/, '')}:`,
    );
  if (text.length > MAX_HTTPS_URL_LENGTH)
    throw validationError(`url: longer than ${MAX_HTTPS_URL_LENGTH} characters`);
  if (url.username !== '' || url.password !== '')
    throw validationError('url: must not carry a user name or password');
  url.hash = '';
  return { kind: 'https', url };
}
