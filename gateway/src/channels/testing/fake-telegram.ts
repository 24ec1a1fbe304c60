import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenRestartable } from './restartable-server.ts';
import { createSentLog } from './sent-log.ts';

/** What the fake Bot API recorded of one sendMessage. */
export interface SentMessage {
  chat_id: string;
  text: string;
}

type Update = Record<string, unknown> & { update_id: number };

const idOf = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : '';

/** The fields of `body` named in `keys` that it has. */
const pick = (body: Record<string, unknown>, keys: string[]): Record<string, unknown> =>
  Object.fromEntries(keys.filter((key) => key in body).map((key) => [key, body[key]]));

const BOT = { id: 7_000_001, is_bot: true, first_name: 'Hearth', username: 'hearth_test_bot' };

/**
 * A wire-faithful fake of the Telegram Bot API on 127.0.0.1: `/bot<token>/<method>` with JSON
 * bodies, answers `{ok, result}` or `{ok: false, error_code, description, parameters}`.
 * getUpdates long-polls (held until an update arrives or `timeout` seconds pass) and confirms
 * updates below `offset`; sendMessage enforces the 4096-character limit; any method can be made
 * to answer 429 with `retry_after`. `drop()` closes the server and its connections (the far end
 * going away), `restore()` listens again on the same port. `port`: listen on that one (a port
 * the gateway was already pointed at).
 */
export async function startFakeTelegram(token: string, options: { port?: number } = {}) {
  const updates: Update[] = [];
  const sentLog = createSentLog<SentMessage>();
  const sent = sentLog.items;
  const actions: { chat_id: string; action: string }[] = [];
  const calls: string[] = [];
  /** The link-preview fields of each sendMessage body, as sent (absent ones left out). */
  const previews: Record<string, unknown>[] = [];
  const throttled = new Map<string, number>();
  /** Answers some method's next call gets instead of its own (a proxy's error page, cut JSON). */
  const rawAnswers = new Map<
    string,
    ({ status: number; contentType: string; body: string } | 'flood')[]
  >();
  /** Methods whose next call is never answered (held until the connection goes). */
  const held = new Set<string>();
  /** Calls whose connection is cut before any answer, by method: how many more. */
  const cuts = new Map<string, number>();
  /** Bytes sent of answers without end, and how many of them the gateway closed. */
  const flooding = { bytes: 0, closed: 0 };
  /** The `offset` of every getUpdates call, in order. */
  const offsets: number[] = [];
  /** Confirmations get lost: updates below `offset` are kept and handed out to a later poll from before them. */
  let losingConfirmations = false;
  let nextUpdateId = 1;
  let nextMessageId = 1;
  let pollers: (() => void)[] = [];
  /** The webhook setWebhook registered (getUpdates answers 409 while one is set). */
  let webhook: { url: string; secret_token?: string; allowed_updates?: unknown } | undefined;

  const wake = () => {
    const waiting = pollers;
    pollers = [];
    for (const resolve of waiting) resolve();
  };

  const reply = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const fail = (res: ServerResponse, code: number, description: string, parameters?: unknown) =>
    reply(res, code, {
      ok: false,
      error_code: code,
      description,
      ...(parameters ? { parameters } : {}),
    });

  async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    if (text === '') return {};
    return JSON.parse(text) as Record<string, unknown>;
  }

  async function getUpdates(
    body: Record<string, unknown>,
    res: ServerResponse,
    req: IncomingMessage,
  ) {
    const offset = Number(body.offset ?? 0);
    const limit = Math.min(100, Number(body.limit ?? 100));
    const timeout = Number(body.timeout ?? 0);
    offsets.push(offset);
    // Updates below offset are confirmed: forgotten (unless confirmations are being lost).
    if (!losingConfirmations)
      while (updates.length > 0 && (updates[0]?.update_id ?? 0) < offset) updates.shift();
    const pending = () =>
      losingConfirmations ? updates.filter((update) => !(update.update_id < offset)) : updates;
    if (pending().length === 0 && timeout > 0 && !rawAnswers.get('getUpdates')?.length) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeout * 1000);
        pollers.push(() => {
          clearTimeout(timer);
          resolve();
        });
        req.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    if (res.destroyed) return;
    if (answerRaw('getUpdates', res)) return;
    reply(res, 200, { ok: true, result: pending().slice(0, limit) });
  }

  /** Sends the next raw answer queued for `method`, if any; true when it did. */
  function answerRaw(method: string, res: ServerResponse): boolean {
    const answer = rawAnswers.get(method)?.shift();
    if (!answer) return false;
    if (answer === 'flood') {
      flood(res);
      return true;
    }
    res.writeHead(answer.status, { 'content-type': answer.contentType }).end(answer.body);
    return true;
  }

  /** A 200 JSON answer that never ends: sent as fast as the gateway reads it, until it closes. */
  function flood(res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"ok":true,"result":"');
    const chunk = Buffer.alloc(64 * 1024, 'x');
    res.once('close', () => (flooding.closed += 1));
    const more = () => {
      while (!res.destroyed) {
        flooding.bytes += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', more);
          return;
        }
      }
    };
    more();
  }

  const server = createServer((req, res) => {
    void (async () => {
      const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(req.url?.split('?')[0] ?? '');
      if (!match) return fail(res, 404, 'Not Found');
      if (match[1] !== token) return fail(res, 401, 'Unauthorized');
      const method = match[2] ?? '';
      let body: Record<string, unknown>;
      try {
        body = await readJson(req);
      } catch {
        return fail(res, 400, "Bad Request: can't parse JSON");
      }
      calls.push(method);
      const retryAfter = throttled.get(method);
      if (retryAfter !== undefined) {
        throttled.delete(method);
        return fail(res, 429, `Too Many Requests: retry after ${retryAfter}`, {
          retry_after: retryAfter,
        });
      }
      if (held.delete(method)) return;
      const cut = cuts.get(method) ?? 0;
      if (cut > 0) {
        cuts.set(method, cut - 1);
        req.socket.destroy();
        return;
      }
      if (method !== 'getUpdates' && answerRaw(method, res)) return;
      switch (method) {
        case 'getMe':
          return reply(res, 200, {
            ok: true,
            result: {
              ...BOT,
              can_join_groups: true,
              can_read_all_group_messages: false,
              supports_inline_queries: false,
            },
          });
        case 'deleteWebhook': {
          const had = webhook !== undefined;
          webhook = undefined;
          return reply(res, 200, {
            ok: true,
            result: true,
            description: had ? 'Webhook was deleted' : 'Webhook is already deleted',
          });
        }
        case 'setWebhook': {
          const url = typeof body.url === 'string' ? body.url : '';
          const secret = body.secret_token;
          if (!/^https:\/\//.test(url))
            return fail(
              res,
              400,
              'Bad Request: bad webhook: An HTTPS URL must be provided for webhook',
            );
          if (
            secret !== undefined &&
            (typeof secret !== 'string' || !/^[A-Za-z0-9_-]{1,256}$/.test(secret))
          )
            return fail(res, 400, 'Bad Request: secret token contains unallowed characters');
          webhook = {
            url,
            ...(typeof secret === 'string' ? { secret_token: secret } : {}),
            ...(body.allowed_updates !== undefined
              ? { allowed_updates: body.allowed_updates }
              : {}),
          };
          return reply(res, 200, { ok: true, result: true, description: 'Webhook was set' });
        }
        case 'getUpdates':
          if (webhook)
            return fail(
              res,
              409,
              "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
            );
          return getUpdates(body, res, req);
        case 'sendChatAction':
          actions.push({ chat_id: idOf(body.chat_id), action: idOf(body.action) });
          return reply(res, 200, { ok: true, result: true });
        case 'sendMessage': {
          const text = typeof body.text === 'string' ? body.text : '';
          if (body.chat_id === undefined) return fail(res, 400, 'Bad Request: chat_id is empty');
          if (text.trim() === '') return fail(res, 400, 'Bad Request: message text is empty');
          if (text.length > 4096) return fail(res, 400, 'Bad Request: message is too long');
          sentLog.push({ chat_id: idOf(body.chat_id), text });
          previews.push(pick(body, ['link_preview_options', 'disable_web_page_preview']));
          return reply(res, 200, {
            ok: true,
            result: {
              message_id: nextMessageId++,
              date: Math.floor(Date.now() / 1000),
              chat: { id: Number(body.chat_id), type: 'private' },
              from: BOT,
              text,
            },
          });
        }
        default:
          return fail(res, 404, 'Not Found: method not found');
      }
    })();
  });
  const lifecycle = await listenRestartable(server, wake, options.port);
  const { port } = lifecycle;

  /** Queues an update (numbered next, unless it brings an `update_id`); answers its number. */
  function push(update: Record<string, unknown>): number {
    const id = nextUpdateId++;
    updates.push({ update_id: id, ...update });
    wake();
    return id;
  }

  interface MessageOptions {
    from: number;
    text: string;
    chat?: { id: number; type: 'private' | 'group' | 'supergroup' };
    entities?: { type: string; offset: number; length: number }[];
    /** A forwarded message: where it first came from (Bot API `forward_origin`). */
    forward_origin?: Record<string, unknown>;
  }
  const messageOf = (options: MessageOptions) => ({
    message: {
      message_id: nextMessageId++,
      date: Math.floor(Date.now() / 1000),
      chat: options.chat ?? {
        id: options.from,
        type: 'private',
        first_name: `user${options.from}`,
      },
      from: { id: options.from, is_bot: false, first_name: `user${options.from}` },
      text: options.text,
      ...(options.entities ? { entities: options.entities } : {}),
      ...(options.forward_origin ? { forward_origin: options.forward_origin } : {}),
    },
  });

  return {
    apiRoot: `http://127.0.0.1:${port}`,
    bot: BOT,
    sent,
    actions,
    calls,
    previews,
    /**
     * A text message from `from` in `chat` (a private chat with the sender by default); answers
     * its update_id.
     */
    message(options: MessageOptions): number {
      return push(messageOf(options));
    },
    /** The webhook setWebhook registered, if any. */
    webhook: () => webhook,
    /** The update Telegram would POST to the webhook for a message (nothing is queued). */
    webhookUpdate(options: MessageOptions): Update {
      return { update_id: nextUpdateId++, ...messageOf(options) };
    },
    /** Any update as is (malformed ones included). */
    rawUpdate: push,
    /**
     * The next call of `method` gets this answer as is (a waiting getUpdates gets it at once):
     * an HTML error page from a proxy, JSON cut short…
     */
    answerNext(method: string, status: number, body: string, contentType = 'text/html'): void {
      rawAnswers.set(method, [...(rawAnswers.get(method) ?? []), { status, contentType, body }]);
      if (method === 'getUpdates') wake();
    },
    /**
     * The next call of `method` is answered 200 `application/json` without end (as fast as the
     * gateway reads); `flooding` counts what was sent and how many such answers were closed.
     */
    floodNext(method: string): void {
      rawAnswers.set(method, [...(rawAnswers.get(method) ?? []), 'flood']);
      if (method === 'getUpdates') wake();
    },
    flooding,
    /** The next call of `method` is taken and never answered. */
    holdNext(method: string): void {
      held.add(method);
    },
    /** The next `times` calls of `method` get their connection cut before any answer. */
    cutNext(method: string, times = 1): void {
      cuts.set(method, times);
    },
    /** The `offset` each getUpdates call asked from, in order. */
    offsets,
    /**
     * Confirmations are lost from now on (`true`): updates below a poll's `offset` stay, and a
     * poll asking from before them gets them again — as when a gateway stopped before the Bot
     * API saw its confirming getUpdates.
     */
    loseConfirmations(lose: boolean): void {
      losingConfirmations = lose;
    },
    /** The next method call of `method` answers 429 with `retry_after`. */
    throttle(method: string, retryAfter: number): void {
      throttled.set(method, retryAfter);
    },
    /** The next `n` sent messages after those already taken. */
    nextSent: (n = 1, timeoutMs = 15_000): Promise<SentMessage[]> => sentLog.next(n, timeoutMs),
    skipSent: () => sentLog.skip(),
    pendingUpdates: () => updates.length,
    /** The far end goes away: the server stops and every connection is cut. */
    drop: lifecycle.drop,
    /** The far end is back on the same port. */
    restore: lifecycle.restore,
    close: lifecycle.close,
  };
}

export type FakeTelegram = Awaited<ReturnType<typeof startFakeTelegram>>;
