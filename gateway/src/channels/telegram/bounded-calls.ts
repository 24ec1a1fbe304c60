/**
 * Bounds on every Bot API call but getUpdates (sends, chat actions, getMe, setWebhook): a call
 * that cannot reach the Bot API is tried at most `attempts` times, and all its attempts and
 * waits (429 `retry_after` included) end by `deadlineMs`; then it fails with an error saying
 * what went wrong. Without them grammY's calls would wait up to 500 s each, and the retries of
 * @grammyjs/auto-retry would go on without end against a far end that drops connections.
 *
 * getUpdates is polling's own (grammY retries a failed poll after 3 s, the channel reports each
 * failure as health) — except the one grammY's `stop()` sends to confirm the offset, which has no
 * signal: it gets `confirmMs`, so a channel being stopped is not held by a far end that does not
 * answer.
 */
import { HttpError, type Transformer } from 'grammy';

export interface CallBounds {
  /** Attempts of a call whose request did not reach the Bot API (refused, reset). */
  attempts: number;
  /** First wait between attempts; doubles per attempt. */
  retryDelayMs: number;
  /** Everything a call does, its waits included, ends by then. */
  deadlineMs: number;
  /** The confirming getUpdates of grammY's `stop()`. */
  confirmMs: number;
}

export const SEND_BOUNDS: CallBounds = {
  attempts: 3,
  retryDelayMs: 1_000,
  deadlineMs: 60_000,
  confirmMs: 1_000,
};

/** Tried once: getMe is the connect's (the channel retries it with backoff), typing is cosmetic. */
const ONCE = new Set(['getMe', 'sendChatAction']);

/** A Bot API call that failed for good, saying why (its cause is the last attempt's error). */
export class BotApiCallError extends Error {
  override readonly name = 'BotApiCallError';
}

/** What went wrong, from grammY's error (`Network request for 'x' failed!`) and its cause. */
export function describeCallError(error: unknown): string {
  if (error instanceof HttpError && error.error instanceof Error) return error.error.message;
  return error instanceof Error ? error.message : String(error);
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}

/** The transformer; install it last, so it wraps the retries installed before it. */
export function boundedCalls(bounds: CallBounds = SEND_BOUNDS): Transformer {
  const bounded = async (
    prev: (method: string, payload: unknown, signal?: AbortSignal) => Promise<unknown>,
    method: string,
    payload: unknown,
    signal?: AbortSignal,
  ): Promise<unknown> => {
    if (method === 'getUpdates') {
      if (signal) return prev(method, payload, signal);
      return prev(method, payload, AbortSignal.timeout(bounds.confirmMs));
    }
    // grammY's own signals are a polyfill `AbortSignal.any` does not take: followed by hand.
    const deadline = AbortSignal.timeout(bounds.deadlineMs);
    const controller = new AbortController();
    const both = controller.signal;
    const abort = () => controller.abort();
    if (signal?.aborted) abort();
    signal?.addEventListener('abort', abort);
    deadline.addEventListener('abort', abort);
    const attempts = ONCE.has(method) ? 1 : bounds.attempts;
    let last: unknown;
    try {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await prev(method, payload, both);
        } catch (error) {
          last = error;
        }
        if (signal?.aborted) throw last;
        if (deadline.aborted)
          throw new BotApiCallError(
            `${method}: no answer from the Bot API within ${bounds.deadlineMs / 1000} s (${attempt} attempt${attempt === 1 ? '' : 's'}): ${describeCallError(last)}`,
            { cause: last },
          );
        // The Bot API's own refusals (400, 403…) go up as they are.
        if (!(last instanceof HttpError)) throw last;
        // Only a request that never got an answer is tried again (an answer that was too large or
        // not the Bot API's would come back the same).
        const unanswered =
          last.error instanceof Error && last.error.name === 'BotApiUnreachableError';
        if (!unanswered || attempt >= attempts)
          throw new BotApiCallError(
            attempt > 1
              ? `${method} failed after ${attempt} attempts: ${describeCallError(last)}`
              : describeCallError(last),
            { cause: last },
          );
        await pause(bounds.retryDelayMs * 2 ** (attempt - 1), both);
      }
    } finally {
      signal?.removeEventListener('abort', abort);
      deadline.removeEventListener('abort', abort);
    }
  };
  return bounded as unknown as Transformer;
}
