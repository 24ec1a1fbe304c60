import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { listenRestartable } from './restartable-server.ts';
import { createSentLog } from './sent-log.ts';

/** What the fake recorded of one `chat.postMessage` (a DM posted to a user id shows that id). */
export interface SlackSent {
  channel: string;
  text: string;
}

type Json = Record<string, unknown>;

const TEAM_ID = 'T0000HEARTH';
const APP_ID = 'A0000HEARTH';
const BOT = { user_id: 'U0000BOTUSR', bot_id: 'B0000BOTID', user: 'hearth' };
/** A public channel the bot is in. */
export const SLACK_CHANNEL_ID = 'C0000GENERAL';

interface Envelope {
  envelope_id: string;
  payload: Json;
  retry_attempt: number;
}

/**
 * A protocol-faithful fake of Slack on 127.0.0.1. The Web API under `/api/<method>` (form or
 * JSON bodies, `Authorization: Bearer`): `auth.test` (bot token), `apps.connections.open`
 * (app-level token; answers a one-time `ws://` URL), `chat.postMessage` (a user id as `channel`
 * posts to the DM with that user; errors `channel_not_found`, `no_text`, `msg_too_long` as
 * `{ok: false, error}` with HTTP 200), and any method answering HTTP 429 with `Retry-After` and
 * `{ok: false, error: "ratelimited"}`. The Socket Mode WebSocket: `hello` on connect, `events_api`
 * envelopes with an `envelope_id` the client must ACK (`{envelope_id}` back; unacknowledged ones
 * are delivered again, `retry_attempt` + 1, on the next connection), `disconnect` with reason
 * `refresh_requested`, and WebSocket pings. `drop()` cuts everything, `restore()` listens again.
 */
export async function startFakeSlack(tokens: { bot: string; app: string }) {
  const sentLog = createSentLog<SlackSent>();
  const sent = sentLog.items;
  const calls: string[] = [];
  /** The unfurl fields of each chat.postMessage body, as sent (absent ones left out). */
  const previews: Record<string, unknown>[] = [];
  const acked: string[] = [];
  const pending = new Map<string, Envelope>();
  const tickets = new Set<string>();
  const throttled = new Map<string, number>();
  let live: WebSocket | undefined;
  let connections = 0;
  let ts = 1_700_000_000;
  let lastStamp = '';

  const reply = (res: ServerResponse, status: number, body: Json, headers: Json = {}) => {
    res
      .writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        ...(headers as Record<string, string>),
      })
      .end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, code: string) => reply(res, 200, { ok: false, error: code });

  /** Hostile: methods whose next answer never ends; bytes each wrote before the client cut it. */
  const endless = new Set<string>();
  const cuts: number[] = [];

  async function readBody(req: IncomingMessage): Promise<Json> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    if (text === '') return {};
    if ((req.headers['content-type'] ?? '').includes('application/json'))
      return JSON.parse(text) as Json;
    return Object.fromEntries(new URLSearchParams(text));
  }

  function recordSent(entry: SlackSent): void {
    sentLog.push(entry);
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = /^\/api\/([a-zA-Z.]+)$/.exec((req.url ?? '').split('?')[0] ?? '')?.[1];
    if (!method || req.method !== 'POST')
      return reply(res, 404, { ok: false, error: 'unknown_method' });
    let body: Json;
    try {
      body = await readBody(req);
    } catch {
      return error(res, 'invalid_json');
    }
    calls.push(method);
    if (endless.delete(method)) {
      res.writeHead(200, { 'content-type': 'application/json' }).write('{"ok":true,"pad":"');
      const pad = Buffer.alloc(16 * 1024, 0x61);
      let written = 0;
      const pump = () => {
        while (!res.destroyed && res.write(pad)) written += pad.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      res.once('close', () => cuts.push(written));
      return pump();
    }
    const retryAfter = throttled.get(method);
    if (retryAfter !== undefined) {
      throttled.delete(method);
      return reply(
        res,
        429,
        { ok: false, error: 'ratelimited' },
        { 'retry-after': String(retryAfter) },
      );
    }
    const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    switch (method) {
      case 'apps.connections.open': {
        if (bearer !== tokens.app)
          return error(res, bearer.startsWith('xoxb-') ? 'not_allowed_token_type' : 'invalid_auth');
        const ticket = randomUUID();
        tickets.add(ticket);
        return reply(res, 200, {
          ok: true,
          url: `ws://127.0.0.1:${port}/link/?ticket=${ticket}&app_id=${APP_ID}`,
        });
      }
      case 'auth.test':
        if (bearer !== tokens.bot) return error(res, 'invalid_auth');
        return reply(res, 200, {
          ok: true,
          url: 'https://hearth-test.slack.com/',
          team: 'Hearth test',
          user: BOT.user,
          team_id: TEAM_ID,
          user_id: BOT.user_id,
          bot_id: BOT.bot_id,
          is_enterprise_install: false,
        });
      case 'chat.postMessage': {
        if (bearer !== tokens.bot) return error(res, 'invalid_auth');
        const channel = typeof body.channel === 'string' ? body.channel : '';
        const text = typeof body.text === 'string' ? body.text : '';
        if (!/^[A-Z0-9]{2,}$/.test(channel)) return error(res, 'channel_not_found');
        if (text === '') return error(res, 'no_text');
        if (text.length > 40_000) return error(res, 'msg_too_long');
        recordSent({ channel, text });
        previews.push(
          Object.fromEntries(
            ['unfurl_links', 'unfurl_media'].filter((k) => k in body).map((k) => [k, body[k]]),
          ),
        );
        const stamp = `${(ts += 1)}.000100`;
        return reply(res, 200, {
          ok: true,
          channel: channel.startsWith('U') ? `D${channel.slice(1)}` : channel,
          ts: stamp,
          message: { type: 'message', user: BOT.user_id, bot_id: BOT.bot_id, text, ts: stamp },
        });
      }
      default:
        return error(res, 'unknown_method');
    }
  }

  const server = createServer((req, res) => void route(req, res));
  const wss = new WebSocketServer({ server, path: '/link/' });
  const pinger = setInterval(() => {
    for (const client of wss.clients) client.ping();
  }, 2_000);
  pinger.unref();

  const deliver = (socket: WebSocket | undefined, envelope: Envelope) =>
    socket?.send(
      JSON.stringify({
        envelope_id: envelope.envelope_id,
        payload: envelope.payload,
        type: 'events_api',
        accepts_response_payload: false,
        retry_attempt: envelope.retry_attempt,
        retry_reason: envelope.retry_attempt > 0 ? 'timeout' : '',
      }),
    );

  wss.on('connection', (socket, req) => {
    const ticket = new URL(req.url ?? '/', 'ws://fake').searchParams.get('ticket') ?? '';
    if (!tickets.delete(ticket)) {
      socket.close(1008, 'invalid ticket');
      return;
    }
    connections += 1;
    live = socket;
    socket.send(
      JSON.stringify({
        type: 'hello',
        num_connections: 1,
        debug_info: { host: 'fake-slack', build_number: 1, approximate_connection_time: 18_060 },
        connection_info: { app_id: APP_ID },
      }),
    );
    for (const envelope of pending.values()) {
      envelope.retry_attempt += 1;
      deliver(socket, envelope);
    }
    socket.on('message', (raw) => {
      try {
        const ack = JSON.parse(Buffer.from(raw as Buffer).toString('utf8')) as Json;
        const id = String(ack.envelope_id);
        if (pending.delete(id)) acked.push(id);
      } catch {
        // Slack ignores what it cannot read.
      }
    });
    socket.on('close', () => {
      if (live === socket) live = undefined;
    });
  });

  const terminateClients = () => {
    for (const client of wss.clients) client.terminate();
  };
  const lifecycle = await listenRestartable(server, terminateClients);
  const { port } = lifecycle;

  function event(event: Json): string {
    const envelope: Envelope = {
      envelope_id: randomUUID(),
      retry_attempt: 0,
      payload: {
        token: 'verification-token',
        team_id: TEAM_ID,
        api_app_id: APP_ID,
        event,
        type: 'event_callback',
        event_id: `Ev${randomUUID().slice(0, 8).toUpperCase()}`,
        event_time: Math.floor(Date.now() / 1000),
        authorizations: [{ team_id: TEAM_ID, user_id: BOT.user_id, is_bot: true }],
        is_ext_shared_channel: false,
      },
    };
    pending.set(envelope.envelope_id, envelope);
    deliver(live, envelope);
    return envelope.envelope_id;
  }

  return {
    apiUrl: `http://127.0.0.1:${port}/api/`,
    bot: BOT,
    channelId: SLACK_CHANNEL_ID,
    sent,
    calls,
    previews,
    /** Envelope ids the client acknowledged. */
    acked,
    /** Envelopes delivered but not acknowledged yet. */
    unacked: () => pending.size,
    connections: () => connections,
    connected: () => live !== undefined,
    /** Resolves once a client holds the Socket Mode connection. */
    async linked(timeoutMs = 20_000): Promise<void> {
      const until = Date.now() + timeoutMs;
      while (!live) {
        if (Date.now() > until) throw new Error('no Socket Mode client connected');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    /** A user's message: a DM (`channel_type: im`) by default, or in the public channel. */
    message(options: {
      from: string;
      text: string;
      channel?: boolean;
      botId?: string;
      subtype?: string;
    }): string {
      const stamp = `${(ts += 1)}.000200`;
      lastStamp = stamp;
      return event({
        type: 'message',
        ...(options.subtype ? { subtype: options.subtype } : {}),
        user: options.from,
        ...(options.botId ? { bot_id: options.botId } : {}),
        text: options.text,
        ts: stamp,
        event_ts: stamp,
        channel: options.channel ? SLACK_CHANNEL_ID : `D${options.from.slice(1)}`,
        channel_type: options.channel ? 'channel' : 'im',
        team: TEAM_ID,
      });
    },
    /**
     * An `app_mention` event in the public channel. Slack sends one beside the `message` event
     * of the same post (same `ts`): `sameAsLast` makes it that of the last message.
     */
    mention(options: { from: string; text: string; sameAsLast?: boolean }): string {
      const stamp = options.sameAsLast ? lastStamp : `${(ts += 1)}.000300`;
      return event({
        type: 'app_mention',
        user: options.from,
        text: options.text,
        ts: stamp,
        event_ts: stamp,
        channel: SLACK_CHANNEL_ID,
        team: TEAM_ID,
      });
    },
    /** Any inner event as is (malformed ones included). */
    rawEvent: event,
    /** Any frame as is (not JSON, or an envelope of any shape). */
    rawFrame(text: string): void {
      live?.send(text);
    },
    /** Slack asks the client to reconnect (it does so before recycling a connection). */
    refresh(): void {
      live?.send(
        JSON.stringify({
          type: 'disconnect',
          reason: 'refresh_requested',
          debug_info: { host: 'fake-slack' },
        }),
      );
    },
    /** Hostile: the next call of `method` answers 200 with a body that never ends. */
    endlessNext(method: string): void {
      endless.add(method);
    },
    /** Bytes each endless answer wrote before the client cut it, in order. */
    cuts,
    /** The next call of `method` answers 429 with `Retry-After`. */
    throttle(method: string, retryAfterSeconds: number): void {
      throttled.set(method, retryAfterSeconds);
    },
    nextSent: (n = 1, timeoutMs = 15_000): Promise<SlackSent[]> => sentLog.next(n, timeoutMs),
    skipSent: () => sentLog.skip(),
    /** The far end goes away: the server stops and every connection is cut. */
    drop: () => {
      live = undefined;
      return lifecycle.drop();
    },
    restore: lifecycle.restore,
    close: () => {
      clearInterval(pinger);
      wss.close();
      return lifecycle.close();
    },
  };
}

export type FakeSlack = Awaited<ReturnType<typeof startFakeSlack>>;
