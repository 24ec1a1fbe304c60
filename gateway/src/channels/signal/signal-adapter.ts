import { EventSourceParserStream } from 'eventsource-parser/stream';
import type { ChannelConfig } from '../../config/schema.ts';
import type { AdapterIo, ChannelAdapter, ChannelLink } from '../ports.ts';
import { classifyReceive, GROUP_CHAT_PREFIX } from './signal-envelope.ts';
import { createSignalRpc } from './signal-rpc.ts';

type SignalConfig = Extract<ChannelConfig, { type: 'signal' }>;

/**
 * Longest text of one message Hearth sends: Signal clients show up to 2000 characters inline
 * (signal-cli turns longer text into an attachment), so replies are split there.
 */
export const SIGNAL_TEXT_LIMIT = 2000;

export interface SignalOptions {
  /** First wait before reopening a dropped event stream (doubles up to `maxRetryMs`). */
  retryMs?: number;
  maxRetryMs?: number;
  /**
   * A stream silent this long is checked (`GET /api/v1/check`); a daemon that does not answer
   * then is taken as gone and the stream reopened (a half-open connection never ends by itself).
   */
  idleCheckMs?: number;
}

/** Recipient or group of a send, from a chat id (`group:<base64 id>` or a number/uuid). */
const target = (chatId: string): Record<string, unknown> =>
  chatId.startsWith(GROUP_CHAT_PREFIX)
    ? { groupId: chatId.slice(GROUP_CHAT_PREFIX.length) }
    : { recipient: [chatId] };

/**
 * The most characters of one event of the stream the parser holds (a `receive` event of 16,384
 * characters of text takes well under 200,000): past it the stream is cut and reopened.
 */
export const MAX_EVENT_CHARS = 1024 * 1024;

/** A `Last-Event-ID` the daemon cannot know: it then sends every event it kept. */
const UNKNOWN_EVENT_ID = 'hearth-resume';

const abortableSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Signal through signal-cli's daemon, which the user runs (`signal-cli -a <account> daemon
 * --http 127.0.0.1:8080`): messages arrive as `receive` events on its Server-Sent Events stream
 * `GET /api/v1/events`, replies and typing go out as JSON-RPC `send` / `sendTyping` on `POST
 * /api/v1/rpc`. A dropped stream is reopened with backoff and the `Last-Event-ID` of the last
 * event seen, so the daemon replays what came meanwhile. One stream per account (`exclusive`),
 * or each gateway would answer every message.
 */
export function createSignalAdapter(
  config: SignalConfig,
  io: AdapterIo,
  options: SignalOptions = {},
): ChannelAdapter {
  const rpc = createSignalRpc({ rpcUrl: config.rpc_url, fetch: io.fetch });
  const eventsUrl = new URL('/api/v1/events', config.rpc_url).toString();
  const checkUrl = new URL('/api/v1/check', config.rpc_url).toString();
  const retryMs = options.retryMs ?? 500;
  const maxRetryMs = options.maxRetryMs ?? 30_000;
  const idleCheckMs = options.idleCheckMs ?? 120_000;
  let lastEventId: string | undefined;
  /** When the adapter first listened: replayed messages older than this were never ours. */
  let listeningSince = 0;
  let stop: AbortController | undefined;
  let loop: Promise<void> | undefined;

  async function handle(
    link: ChannelLink,
    event: { event?: string; data: string },
    replayed: boolean,
  ) {
    if (event.event !== 'receive') {
      link.rejected(`event of unknown type '${event.event ?? 'message'}'`);
      return;
    }
    const classified = classifyReceive(event.data, config.account);
    if (classified.kind === 'refused') link.rejected(classified.reason);
    else if (classified.kind === 'message' && !(replayed && classified.at < listeningSince))
      await link.receive(classified.message);
  }

  /**
   * Opens the event stream; resolves with its body once the daemon answered 200. Reopening
   * without an event seen yet asks for every kept event (an id the daemon does not know), of
   * which those from before the adapter listened are skipped.
   */
  async function open(signal: AbortSignal, reopening: boolean) {
    const resumeFrom = lastEventId ?? (reopening ? UNKNOWN_EVENT_ID : undefined);
    const res = await io.fetch(eventsUrl, {
      headers: {
        accept: 'text/event-stream',
        ...(resumeFrom === undefined ? {} : { 'last-event-id': resumeFrom }),
      },
      signal,
    });
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      throw new Error(`signal-cli events answered HTTP ${res.status}`);
    }
    return res.body;
  }

  /** Whether the daemon answers its health check within 10 s. */
  async function daemonAnswers(): Promise<boolean> {
    try {
      const res = await io.fetch(checkUrl, { signal: AbortSignal.timeout(10_000) });
      await res.body?.cancel();
      return res.ok;
    } catch {
      return false;
    }
  }

  /**
   * Reads one stream to its end. Every `idleCheckMs` without a byte, the daemon is asked whether
   * it is still there; when it does not answer, the stream is given up (read fails) so `run`
   * reopens it.
   */
  async function consume(link: ChannelLink, body: ReadableStream<Uint8Array>, replayed: boolean) {
    let lastByteAt = io.now();
    const reader = body.getReader();
    let checking = false;
    const watchdog = setInterval(
      () => {
        if (checking || io.now() - lastByteAt < idleCheckMs) return;
        checking = true;
        void daemonAnswers().then((alive) => {
          checking = false;
          if (alive) lastByteAt = io.now();
          else {
            io.logger.warn(
              { account: config.account },
              'signal-cli silent and unreachable: reopening',
            );
            void reader.cancel(new Error('signal-cli stopped answering'));
          }
        });
      },
      Math.min(idleCheckMs, 30_000),
    );
    watchdog.unref();
    const bytes = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await reader.read();
        if (next.done) controller.close();
        else {
          lastByteAt = io.now();
          controller.enqueue(next.value);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    try {
      // The parser holds at most MAX_EVENT_CHARS of an event: past it the stream errors, and
      // the source is cancelled (the connection closed) through the pipe.
      const events = bytes
        .pipeThrough(new TextDecoderStream())
        .pipeThrough(new EventSourceParserStream({ maxBufferSize: MAX_EVENT_CHARS }));
      for await (const event of events) {
        if (event.id) lastEventId = event.id;
        await handle(link, event, replayed);
      }
    } catch (error) {
      if ((error as { type?: unknown }).type !== 'max-buffer-size-exceeded') throw error;
      const reason = `signal-cli sent an event of more than ${MAX_EVENT_CHARS} characters: the stream was cut`;
      link.rejected(reason);
      throw new Error(reason, { cause: error });
    } finally {
      clearInterval(watchdog);
    }
  }

  /** Reads the stream until stopped, reopening it with backoff whenever it drops. */
  async function run(link: ChannelLink, first: ReadableStream<Uint8Array>, signal: AbortSignal) {
    let body: ReadableStream<Uint8Array> | undefined = first;
    let wait = retryMs;
    while (!signal.aborted) {
      try {
        const replayed = body === undefined && lastEventId === undefined;
        body ??= await open(signal, true);
        link.health(true);
        wait = retryMs;
        await consume(link, body, replayed);
        if (!signal.aborted) link.health(false, 'signal-cli closed the event stream');
      } catch (error) {
        if (signal.aborted) return;
        link.health(false, `signal-cli unreachable: ${String(error)}`);
      }
      body = undefined;
      await abortableSleep(wait, signal);
      wait = Math.min(wait * 2, maxRetryMs);
    }
  }

  return {
    type: 'signal',
    maxTextLength: SIGNAL_TEXT_LIMIT,
    exclusive: true,
    async connect(link) {
      const check = await io.fetch(checkUrl, { signal: AbortSignal.timeout(10_000) });
      await check.body?.cancel();
      if (!check.ok) throw new Error(`signal-cli check answered HTTP ${check.status}`);
      const controller = new AbortController();
      if (lastEventId === undefined) listeningSince = io.now();
      const body = await open(controller.signal, false);
      stop = controller;
      loop = run(link, body, controller.signal).catch((error: unknown) => {
        if (!controller.signal.aborted) link.lost(error);
      });
      io.logger.info({ account: config.account }, 'signal event stream open');
    },
    async disconnect() {
      stop?.abort();
      await loop;
      stop = undefined;
      loop = undefined;
    },
    async sendText(chatId, text) {
      await rpc.call('send', { ...target(chatId), message: text });
    },
    async typing(chatId) {
      await rpc.call('sendTyping', target(chatId));
    },
  };
}
