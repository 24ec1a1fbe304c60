/**
 * The HTTP client grammY calls the Bot API through: the gateway's fetch, with every answer read
 * as text first — counted as it streams and cut at `maxAnswerBytes` — so one that is not a Bot
 * API answer — a proxy's 502 page, a body cut short, one without end — is an error saying what
 * came back (its status and a short excerpt, or the cap) instead of a bare "network request
 * failed"; a far end that cannot be reached is an error naming it and why (connection refused,
 * reset, no such host).
 */
import { capResponse } from '../../http/outbound/capped-body.ts';

/** How much of an unreadable answer is quoted. */
const EXCERPT_LENGTH = 120;

/** The Bot API answered something that is not a Bot API answer (`{ok: …}` as JSON). */
export class BotApiAnswerError extends Error {
  override readonly name = 'BotApiAnswerError';
}

/** The Bot API could not be reached (refused, reset, no such host): names where and why. */
export class BotApiUnreachableError extends Error {
  override readonly name = 'BotApiUnreachableError';
}

export interface BotApiFetchOptions {
  token: string;
  /** Past it, reading the answer is aborted and the call fails (`max_answer_bytes`). */
  maxAnswerBytes: number;
  /** Told each time an answer goes over `maxAnswerBytes` (a counter). */
  onOver?: () => void;
}

/** The method a Bot API URL calls (`…/bot<token>/sendMessage` → `sendMessage`). */
const methodOf = (url: string) => /\/([A-Za-z]+)(?:\?|$)/.exec(url)?.[1] ?? 'a Bot API method';

/** Why the platform's fetch failed, from the error and its causes (`connect ECONNREFUSED …`). */
function networkReason(error: unknown): string {
  const reasons: string[] = [];
  for (let at = error; at instanceof Error && reasons.length < 4; at = at.cause)
    if (at.message !== '' && at.message !== 'fetch failed') reasons.push(at.message);
  return reasons.join(': ') || 'the network request failed';
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

/** `text` with the bot token blanked. */
const excerptless = (text: string, token: string) =>
  token === '' ? text : text.split(token).join('<bot token>');

/**
 * grammY's `client.fetch` over `fetch`, for the bot whose token is `token` (grammY reads nothing
 * of the response but its JSON).
 */
export function botApiFetch(fetch: typeof globalThis.fetch, options: BotApiFetchOptions) {
  const { token } = options;
  return async (url: string, init: GrammyInit = {}): Promise<{ json(): Promise<unknown> }> => {
    const method = methodOf(url);
    // grammY's signal is a polyfill the platform's fetch does not take: follow it with a real one.
    const controller = new AbortController();
    const abort = () => controller.abort();
    const outer = init.signal;
    if (outer?.aborted) abort();
    else outer?.addEventListener('abort', abort);
    try {
      let res: Response;
      try {
        res = await fetch(url, {
          method: init.method,
          headers: init.headers,
          body: init.body,
          signal: controller.signal,
          // A streamed body (a file upload) needs it.
          ...(typeof init.body === 'string' || init.body === undefined ? {} : { duplex: 'half' }),
        });
      } catch (error) {
        if (controller.signal.aborted) throw error;
        throw new BotApiUnreachableError(
          excerptless(
            `${method}: the Bot API at ${new URL(url).origin} could not be reached: ${networkReason(error)}`,
            token,
          ),
          { cause: error },
        );
      }
      const text = await capResponse(res, {
        maxBytes: options.maxAnswerBytes,
        what: `the Bot API's answer to ${method}`,
        onOver: options.onOver,
      }).text();
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
