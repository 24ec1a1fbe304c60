/**
 * The HTTP client grammY calls the Bot API through: the gateway's fetch, with every answer read
 * as text first, so one that is not a Bot API answer — a proxy's 502 page, a body cut short — is
 * an error saying what came back (its status and a short excerpt) instead of a bare "network
 * request failed".
 */
/** How much of an unreadable answer is quoted. */
const EXCERPT_LENGTH = 120;

/** The Bot API answered something that is not a Bot API answer (`{ok: …}` as JSON). */
export class BotApiAnswerError extends Error {
  override readonly name = 'BotApiAnswerError';
}

/** What grammY passes its fetch: node-fetch's options, with an `abort-controller` signal. */
interface GrammyInit {
  method?: string;
  headers?: Record<string, string>;
  body?: RequestInit['body'];
  signal?: {
    aborted: boolean;
    addEventListener(type: 'abort', listener: () => void): void;
    removeEventListener(type: 'abort', listener: () => void): void;
  };
}

/** Up to `EXCERPT_LENGTH` characters of `text`, one line, printable, the bot token blanked. */
export function excerpt(text: string, token: string): string {
  const redacted = token === '' ? text : text.split(token).join('<bot token>');
  const line = redacted
    // eslint-disable-next-line no-control-regex -- control characters are what is replaced here
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200b-\u200f\u202a-\u202e]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > EXCERPT_LENGTH ? `${line.slice(0, EXCERPT_LENGTH)}…` : line;
}

/**
 * grammY's `client.fetch` over `fetch`, for the bot whose token is `token` (grammY reads nothing
 * of the response but its JSON).
 */
export function botApiFetch(fetch: typeof globalThis.fetch, token: string) {
  return async (url: string, init: GrammyInit = {}): Promise<{ json(): Promise<unknown> }> => {
    // grammY's signal is a polyfill the platform's fetch does not take: follow it with a real one.
    const controller = new AbortController();
    const abort = () => controller.abort();
    const outer = init.signal;
    if (outer?.aborted) abort();
    else outer?.addEventListener('abort', abort);
    try {
      const res = await fetch(url, {
        method: init.method,
        headers: init.headers,
        body: init.body,
        signal: controller.signal,
        // A streamed body (a file upload) needs it.
        ...(typeof init.body === 'string' || init.body === undefined ? {} : { duplex: 'half' }),
      });
      const text = await res.text();
      const type = res.headers.get('content-type')?.split(';')[0] ?? 'no content type';
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new BotApiAnswerError(
          `the Bot API answered ${res.status} (${type}) with ${text === '' ? 'an empty body' : `"${excerpt(text, token)}"`}, not JSON`,
        );
      }
      if (typeof json !== 'object' || json === null || typeof Reflect.get(json, 'ok') !== 'boolean')
        throw new BotApiAnswerError(
          `the Bot API answered ${res.status} with JSON that is not a Bot API answer: "${excerpt(text, token)}"`,
        );
      return { json: () => Promise.resolve(json) };
    } finally {
      outer?.removeEventListener('abort', abort);
    }
  };
}
