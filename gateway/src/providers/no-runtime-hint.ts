/**
 * What a failed generation tells a newcomer: with the default configuration every request goes
 * to the local runtime (Ollama), and when nothing listens there the error says what to do next.
 * Also keeps credentials out of error text shown to clients: URLs lose their user info, query
 * and fragment.
 */
import { SETUP_PLACES } from './setup-hint.ts';

/** Error codes of a connection that never reached a server. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** How deep `cause` chains are followed (fetch → undici → socket error). */
const MAX_CAUSE_DEPTH = 8;

/** True when `error` (or an error it wraps) is a connection that never reached the server. */
export function isUnreachable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: { value: unknown; depth: number }[] = [{ value: error, depth: 0 }];
  while (queue.length > 0) {
    const { value, depth } = queue.shift()!;
    if (typeof value !== 'object' || value === null || seen.has(value) || depth > MAX_CAUSE_DEPTH)
      continue;
    seen.add(value);
    const { code, cause, errors } = value as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
    queue.push({ value: cause, depth: depth + 1 });
    if (Array.isArray(errors))
      for (const inner of errors) queue.push({ value: inner, depth: depth + 1 });
  }
  return false;
}

/** A URL without user info, query or fragment (they may hold credentials); null if unparsable. */
function parsedWithoutCredentials(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  parsed.search = '';
  parsed.hash = '';
  return parsed.pathname === '/' ? parsed.origin : parsed.toString();
}

/** A URL without user info, query or fragment (they may hold credentials). */
export function withoutCredentials(url: string): string {
  return parsedWithoutCredentials(url) ?? '(the configured URL)';
}

/** Every URL in `text` without user info, query or fragment; an unparsable one keeps its scheme. */
export function redactUrls(text: string): string {
  return text.replace(
    /\b([a-z][a-z0-9+.-]*:\/\/)[^\s"'<>]+/gi,
    (url, scheme: string) => parsedWithoutCredentials(url) ?? `${scheme}…`,
  );
}

/** The next step when the local runtime at `baseURL` could not be reached. */
export function noRuntimeHint(baseURL: string): string {
  return (
    `Start Ollama at ${withoutCredentials(baseURL)}, or configure a provider: ${SETUP_PLACES} ` +
    '(or POST /api/v1/settings/llm).'
  );
}
