/** A server-sent event: `event:` name and a JSON `data:` payload. */
export interface ServerSentEvent {
  event: string;
  data: unknown;
}

/** Marks a route result that is sent as `text/event-stream` instead of JSON. */
export interface EventStreamResult {
  readonly kind: 'event-stream';
  readonly events: AsyncIterable<ServerSentEvent>;
  /** Called when the client goes away before the stream ended. */
  readonly cancel: () => void;
}

export function isEventStream(value: unknown): value is EventStreamResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'event-stream'
  );
}

/** Longest `Accept` header read for negotiation; the rest of a longer one is ignored. */
const MAX_ACCEPT_LENGTH = 2048;

/**
 * Whether the client asked for `text/event-stream` by name in `Accept` (with a non-zero `q`).
 * Wildcards (any type, `text/*`) do not count: a client that did not name it gets JSON.
 */
export function acceptsEventStream(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  return accept
    .slice(0, MAX_ACCEPT_LENGTH)
    .split(',')
    .some((range) => {
      const [type = '', ...params] = range.split(';').map((part) => part.trim());
      if (type.toLowerCase() !== 'text/event-stream') return false;
      const q = params.find((param) => /^q\s*=/i.test(param));
      return q === undefined || Number(q.split('=')[1]) > 0;
    });
}

/**
 * A push-to-pull queue: producers `push` events and `end`/`fail` the stream; the consumer
 * iterates. Used to turn a streaming callback API into an async iterable.
 */
export function createEventQueue<T>() {
  const buffered: T[] = [];
  let waiting: ((result: IteratorResult<T>) => void) | undefined;
  let failWaiting: ((error: unknown) => void) | undefined;
  let done = false;
  let failure: { error: unknown } | undefined;

  return {
    push(item: T): void {
      if (done) return;
      if (waiting) {
        const resolve = waiting;
        waiting = undefined;
        resolve({ value: item, done: false });
      } else buffered.push(item);
    },
    end(): void {
      done = true;
      waiting?.({ value: undefined, done: true });
      waiting = undefined;
    },
    fail(error: unknown): void {
      done = true;
      failure = { error };
      failWaiting?.(error);
      waiting = undefined;
    },
    async *[Symbol.asyncIterator](): AsyncGenerator<T> {
      for (;;) {
        if (buffered.length > 0) {
          yield buffered.shift() as T;
          continue;
        }
        if (failure) throw failure.error;
        if (done) return;
        const next = await new Promise<IteratorResult<T>>((resolve, reject) => {
          waiting = resolve;
          failWaiting = reject;
        });
        if (next.done) return;
        yield next.value;
      }
    },
  };
}
