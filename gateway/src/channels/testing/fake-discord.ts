import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { APIMessage, APIUser, MessageFlags } from 'discord.js';
import { WebSocketServer, type WebSocket } from 'ws';
import { listenRestartable } from './restartable-server.ts';
import { createSentLog } from './sent-log.ts';

/** What the fake recorded of one `POST /channels/{id}/messages`. */
export interface DiscordSent {
  channel_id: string;
  content: string;
}

type Json = Record<string, unknown>;

/** Gateway intents (the bits IDENTIFY carries). */
export const INTENTS = {
  guilds: 1 << 0,
  guildMessages: 1 << 9,
  directMessages: 1 << 12,
  messageContent: 1 << 15,
} as const;

const BOT: APIUser & { bot: true } = {
  id: '900000000000000001',
  username: 'hearth-test',
  discriminator: '0',
  global_name: 'Hearth',
  avatar: null,
  bot: true,
};
const APPLICATION = { id: '900000000000000002', flags: 0 };
const GUILD_ID = '910000000000000001';
/** The guild's one text channel. */
export const GUILD_CHANNEL_ID = '910000000000000002';

/** Discord's snowflakes: unique across users, channels and messages. */
let snowflake = 920_000_000_000_000_000n;
const nextId = (): string => String((snowflake += 1n));

interface Session {
  id: string;
  /** Every dispatch sent in this session, by sequence (RESUME replays those after `seq`). */
  events: { s: number; t: string; d: unknown }[];
  socket?: WebSocket;
  identified: boolean;
  intents: number;
}

/** Messages one `GET /channels/{id}/messages` returns: `limit` is 1–100, 50 when absent. */
const PAGE = { min: 1, max: 100, default: 50 } as const;

/**
 * A protocol-faithful fake of Discord on 127.0.0.1: the REST API under `/api/v10` (`Authorization:
 * Bot <token>`; `GET /gateway/bot`, `POST /channels/{id}/messages` with the 2000-character limit
 * and `Invalid Form Body` errors, `GET /channels/{id}` and `GET /channels/{id}/messages` over the
 * messages tests injected and the bot sent (see `history`), `POST /channels/{id}/typing`,
 * `POST /users/@me/channels` for DMs; an unknown channel is 404 `Unknown Channel` (10003), one the
 * bot lost access to 403 `Missing Access` (50001); any route can be made to answer 429 with
 * `retry_after` in the body and the `Retry-After` and `X-RateLimit-*` headers), and the gateway
 * WebSocket (JSON encoding): HELLO (op 10) with
 * `heartbeat_interval`, IDENTIFY (op 2, a bad token closes 4004, no Message Content intent means
 * empty `content`), READY and GUILD_CREATE dispatches, heartbeats answered by ACK (op 11), RESUME
 * (op 6: missed dispatches replayed, then RESUMED; an unknown session gets op 9), and the server's
 * own RECONNECT (op 7) and INVALID SESSION (op 9). `drop()` closes everything (the far end going
 * away), `restore()` listens again on the same port.
 */
export async function startFakeDiscord(
  token: string,
  options: {
    heartbeatMs?: number;
    /** The app may not use the Message Content intent. */ messageContentDisallowed?: boolean;
    /** Hostile: READY lists this many guilds (the test guild and unavailable fillers). */
    readyGuilds?: number;
  } = {},
) {
  const sentLog = createSentLog<DiscordSent>();
  const sent = sentLog.items;
  const typing: string[] = [];
  /** The `flags` of each message the bot posted, as sent (undefined when absent). */
  const sentFlags: unknown[] = [];
  const ops: number[] = [];
  const throttled = new Map<RegExp, number>();
  /** Hostile: routes whose next answer is a 200 that never ends; bytes written before each cut. */
  const endless = new Set<RegExp>();
  const cuts: number[] = [];
  const sessions = new Map<string, Session>();
  const dmChannels = new Map<string, string>(); // user id → DM channel id
  /** Each channel's messages, oldest first (ids only grow). */
  const messages = new Map<string, APIMessage[]>();
  const revoked = new Set<string>();
  const requests: string[] = [];
  let seq = 0;
  let current: Session | undefined;

  const reply = (
    res: ServerResponse,
    status: number,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    if (body === undefined) return void res.writeHead(status, headers).end();
    res
      .writeHead(status, { 'content-type': 'application/json', ...headers })
      .end(JSON.stringify(body));
  };
  const fail = (res: ServerResponse, status: number, code: number, message: string, extra?: Json) =>
    reply(res, status, { message, code, ...extra });

  async function readJson(req: IncomingMessage): Promise<Json> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    return text === '' ? {} : (JSON.parse(text) as Json);
  }

  function recordSent(entry: DiscordSent): void {
    sentLog.push(entry);
  }

  const knownChannel = (id: string) =>
    id === GUILD_CHANNEL_ID || [...dmChannels.values()].includes(id);

  function store(message: APIMessage): void {
    const list = messages.get(message.channel_id) ?? [];
    list.push(message);
    messages.set(message.channel_id, list);
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const match = /^\/api\/v10(\/.*)$/.exec(url.pathname);
    if (!match) return fail(res, 404, 0, '404: Not Found');
    if (req.headers.authorization !== `Bot ${token}`) return fail(res, 401, 0, '401: Unauthorized');
    const route = `${req.method} ${match[1]}`;
    requests.push(`${route}${url.search}`);
    let body: Json;
    try {
      body = await readJson(req);
    } catch {
      return fail(res, 400, 50109, 'The request body contains invalid JSON.');
    }
    const endlessRoute = [...endless].find((pattern) => pattern.test(route));
    if (endlessRoute !== undefined) {
      endless.delete(endlessRoute);
      res.writeHead(200, { 'content-type': 'application/json' }).write('{"content":"');
      const pad = Buffer.alloc(16 * 1024, 0x61);
      let written = 0;
      const pump = () => {
        while (!res.destroyed && res.write(pad)) written += pad.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      res.once('close', () => cuts.push(written));
      return pump();
    }
    const retryAfter = [...throttled.keys()].find((pattern) => pattern.test(route));
    if (retryAfter !== undefined) {
      const seconds = throttled.get(retryAfter) ?? 1;
      throttled.delete(retryAfter);
      return reply(
        res,
        429,
        { message: 'You are being rate limited.', retry_after: seconds, global: false },
        {
          'retry-after': String(Math.ceil(seconds)),
          'x-ratelimit-limit': '5',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset-after': String(seconds),
          'x-ratelimit-bucket': 'fake-bucket',
          'x-ratelimit-scope': 'user',
        },
      );
    }
    if (route === 'GET /gateway/bot') {
      return reply(res, 200, {
        url: `ws://127.0.0.1:${port}`,
        shards: 1,
        session_start_limit: {
          total: 1000,
          remaining: 999,
          reset_after: 14_400_000,
          max_concurrency: 1,
        },
      });
    }
    if (route === 'POST /users/@me/channels') {
      const recipient = typeof body.recipient_id === 'string' ? body.recipient_id : '';
      if (!/^\d{1,20}$/.test(recipient)) return invalidForm(res, 'recipient_id');
      const id = dmChannels.get(recipient) ?? nextId();
      dmChannels.set(recipient, id);
      return reply(res, 200, {
        id,
        type: 1,
        last_message_id: null,
        flags: 0,
        recipients: [userOf(recipient)],
      });
    }
    const typingMatch = /^POST \/channels\/(\d+)\/typing$/.exec(route);
    if (typingMatch) {
      const channelId = typingMatch[1] ?? '';
      if (unreachable(res, channelId)) return;
      typing.push(channelId);
      return reply(res, 204);
    }
    const sendMatch = /^POST \/channels\/(\d+)\/messages$/.exec(route);
    if (sendMatch) {
      const channelId = sendMatch[1] ?? '';
      if (unreachable(res, channelId)) return;
      const content = typeof body.content === 'string' ? body.content : '';
      if (content === '') return fail(res, 400, 50006, 'Cannot send an empty message');
      if (content.length > 2000) return invalidForm(res, 'content', 2000);
      recordSent({ channel_id: channelId, content });
      sentFlags.push(body.flags);
      const sentMessage = apiMessage(channelId, BOT, content, []);
      store(sentMessage);
      return reply(res, 200, sentMessage);
    }
    const historyMatch = /^GET \/channels\/(\d+)\/messages$/.exec(route);
    if (historyMatch) {
      const channelId = historyMatch[1] ?? '';
      if (unreachable(res, channelId)) return;
      return history(res, channelId, url.searchParams);
    }
    const channelMatch = /^GET \/channels\/(\d+)$/.exec(route);
    if (channelMatch) {
      const channelId = channelMatch[1] ?? '';
      if (unreachable(res, channelId)) return;
      return reply(res, 200, channelObject(channelId));
    }
    return fail(res, 404, 0, '404: Not Found');
  }

  /** Answers 404 Unknown Channel, or 403 Missing Access for a channel the bot lost: true then. */
  function unreachable(res: ServerResponse, channelId: string): boolean {
    if (!knownChannel(channelId)) fail(res, 404, 10003, 'Unknown Channel');
    else if (revoked.has(channelId)) fail(res, 403, 50001, 'Missing Access');
    else return false;
    return true;
  }

  /**
   * `GET /channels/{id}/messages`: `limit` 1–100 (50 by default); with `after`, the page right
   * after that id; with `before`, the page right before it; with neither, the latest page.
   * Either way newest first, as Discord returns them. `before`, `after` and `around` are mutually
   * exclusive in Discord's documentation: more than one is refused here; `around` is not served.
   */
  function history(res: ServerResponse, channelId: string, query: URLSearchParams): void {
    const rawLimit = query.get('limit') ?? String(PAGE.default);
    const limit = Number(rawLimit);
    if (!/^\d+$/.test(rawLimit))
      return formError(res, 'limit', 'NUMBER_TYPE_COERCE', `Value "${rawLimit}" is not int.`);
    if (limit < PAGE.min)
      return formError(
        res,
        'limit',
        'NUMBER_TYPE_MIN',
        'int value should be greater than or equal to 1.',
      );
    if (limit > PAGE.max)
      return formError(
        res,
        'limit',
        'NUMBER_TYPE_MAX',
        'int value should be less than or equal to 100.',
      );
    const anchors = (['before', 'after', 'around'] as const).filter((key) => query.has(key));
    for (const key of anchors) {
      const value = query.get(key) ?? '';
      if (!/^\d{1,20}$/.test(value))
        return formError(res, key, 'NUMBER_TYPE_COERCE', `Value "${value}" is not snowflake.`);
    }
    const [anchor, ...others] = anchors;
    if (others.length > 0 || anchor === 'around')
      return fail(res, 400, 0, `the fake serves one of before or after, not ${anchors.join(', ')}`);
    const all = messages.get(channelId) ?? [];
    const from = BigInt(query.get(anchor ?? '') ?? 0);
    const page =
      anchor === 'after'
        ? all.filter((m) => BigInt(m.id) > from).slice(0, limit)
        : anchor === 'before'
          ? all.filter((m) => BigInt(m.id) < from).slice(-limit)
          : all.slice(-limit);
    const withContent = (m: APIMessage) =>
      options.messageContentDisallowed ? { ...m, content: '' } : m;
    return reply(res, 200, page.map(withContent).reverse());
  }

  /** `GET /channels/{id}`: a DM channel (type 1) with its recipient, or the guild's text channel. */
  function channelObject(channelId: string): Json {
    const last = messages.get(channelId)?.at(-1)?.id ?? null;
    if (channelId === GUILD_CHANNEL_ID)
      return { ...guildTextChannel(), guild_id: GUILD_ID, last_message_id: last };
    const user = [...dmChannels.entries()].find(([, id]) => id === channelId)?.[0] ?? '';
    return { id: channelId, type: 1, last_message_id: last, flags: 0, recipients: [userOf(user)] };
  }

  /** A message as the REST API returns it (the gateway's MESSAGE_CREATE adds `guild_id`). */
  function apiMessage(channelId: string, author: APIUser, content: string, mentions: APIUser[]) {
    const message: APIMessage = {
      id: nextId(),
      type: 0,
      channel_id: channelId,
      author,
      content,
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions,
      mention_roles: [],
      attachments: [],
      embeds: [],
      pinned: false,
      flags: 0 as MessageFlags, // none
    };
    return message;
  }

  function formError(res: ServerResponse, field: string, code: string, message: string) {
    return fail(res, 400, 50035, 'Invalid Form Body', {
      errors: { [field]: { _errors: [{ code, message }] } },
    });
  }

  function invalidForm(res: ServerResponse, field: string, max?: number) {
    return fail(res, 400, 50035, 'Invalid Form Body', {
      errors: {
        [field]: {
          _errors: [
            max
              ? { code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${max} or fewer in length.` }
              : { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' },
          ],
        },
      },
    });
  }

  const userOf = (id: string): APIUser => ({
    id,
    username: `user${id}`,
    discriminator: '0',
    global_name: `User ${id}`,
    avatar: null,
  });

  const server = createServer((req, res) => void route(req, res));
  const wss = new WebSocketServer({ server, maxPayload: 64 * 1024 });

  const send = (socket: WebSocket | undefined, payload: Json) => {
    if (socket?.readyState === socket?.OPEN) socket?.send(JSON.stringify(payload));
  };
  function dispatch(session: Session, t: string, d: unknown): void {
    const s = (seq += 1);
    session.events.push({ s, t, d });
    if (session.identified) send(session.socket, { op: 0, t, s, d });
  }

  function guildCreate(): Json {
    return {
      id: GUILD_ID,
      name: 'Hearth test guild',
      icon: null,
      owner_id: '930000000000000001',
      joined_at: new Date(0).toISOString(),
      large: false,
      unavailable: false,
      member_count: 3,
      features: [],
      roles: [{ id: GUILD_ID, name: '@everyone', permissions: '1024', position: 0, color: 0 }],
      emojis: [],
      stickers: [],
      members: [],
      presences: [],
      voice_states: [],
      threads: [],
      stage_instances: [],
      guild_scheduled_events: [],
      channels: [guildTextChannel()],
    };
  }

  function guildTextChannel(): Json {
    return {
      id: GUILD_CHANNEL_ID,
      type: 0,
      name: 'general',
      position: 0,
      permission_overwrites: [],
      parent_id: null,
      nsfw: false,
    };
  }

  wss.on('connection', (socket, req) => {
    const params = new URL(req.url ?? '/', 'ws://fake').searchParams;
    if (params.get('v') !== '10' || params.get('encoding') !== 'json') {
      socket.close(4012, 'Invalid API version');
      return;
    }
    let session: Session | undefined;
    send(socket, {
      op: 10,
      s: null,
      t: null,
      d: { heartbeat_interval: options.heartbeatMs ?? 41_250 },
    });
    socket.on('message', (raw) => {
      let payload: Json;
      try {
        payload = JSON.parse(Buffer.from(raw as Buffer).toString('utf8')) as Json;
      } catch {
        socket.close(4002, 'Error while decoding payload.');
        return;
      }
      const op = Number(payload.op);
      ops.push(op);
      const d = (payload.d ?? {}) as Json;
      switch (op) {
        case 1:
          return send(socket, { op: 11, s: null, t: null, d: null });
        case 2: {
          if (d.token !== token) return void socket.close(4004, 'Authentication failed.');
          if (typeof d.intents !== 'number') return void socket.close(4013, 'Invalid intent(s).');
          if (options.messageContentDisallowed && (d.intents & INTENTS.messageContent) !== 0)
            return void socket.close(4014, 'Disallowed intent(s).');
          session = { id: randomUUID(), events: [], socket, identified: true, intents: d.intents };
          sessions.set(session.id, session);
          current = session;
          dispatch(session, 'READY', {
            v: 10,
            user: BOT,
            guilds: [
              { id: GUILD_ID, unavailable: true },
              ...Array.from({ length: Math.max(0, (options.readyGuilds ?? 1) - 1) }, (_, i) => ({
                id: String(940_000_000_000_000_000n + BigInt(i)),
                unavailable: true,
              })),
            ],
            session_id: session.id,
            resume_gateway_url: `ws://127.0.0.1:${port}`,
            shard: [0, 1],
            application: APPLICATION,
          });
          dispatch(session, 'GUILD_CREATE', guildCreate());
          return;
        }
        case 6: {
          if (typeof d.seq !== 'number')
            return void socket.close(4002, 'Error while decoding payload.');
          const known = sessions.get(String(d.session_id));
          if (d.token !== token) return void socket.close(4004, 'Authentication failed.');
          if (!known) return send(socket, { op: 9, s: null, t: null, d: false });
          known.socket = socket;
          known.identified = true;
          session = known;
          current = known;
          for (const event of known.events.filter((e) => e.s > Number(d.seq))) {
            send(socket, { op: 0, t: event.t, s: event.s, d: event.d });
          }
          dispatch(known, 'RESUMED', {});
          return;
        }
        default:
          socket.close(4001, 'Unknown opcode.');
      }
    });
    socket.on('close', () => {
      if (session?.socket === socket) session.identified = false;
    });
  });

  const terminateClients = () => {
    for (const client of wss.clients) client.terminate();
  };
  const lifecycle = await listenRestartable(server, terminateClients);
  const { port } = lifecycle;

  return {
    apiUrl: `http://127.0.0.1:${port}/api`,
    bot: BOT,
    guildChannelId: GUILD_CHANNEL_ID,
    sentFlags,
    guildId: GUILD_ID,
    sent,
    typing,
    /** Every gateway opcode the client sent, in order. */
    ops,
    /** The user a DM channel is with, if `channelId` is a DM channel. */
    userOfDm: (channelId: string): string | undefined =>
      [...dmChannels.entries()].find(([, id]) => id === channelId)?.[0],
    /** Whether a client is identified (READY or RESUMED) on the gateway now. */
    connected: () => current?.identified === true,
    /** Resolves once a client is identified (after a drop, once it connected again). */
    async identified(timeoutMs = 20_000): Promise<void> {
      const until = Date.now() + timeoutMs;
      while (current?.identified !== true) {
        if (Date.now() > until) throw new Error('no client identified on the fake gateway');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    /** Sessions started by IDENTIFY (a RESUME starts none). */
    sessionCount: () => sessions.size,
    /**
     * A user's message: a DM by default, or in the guild's text channel. Kept in the channel's
     * history, and dispatched to the gateway session, if any (a session no client holds keeps it
     * for a RESUME); returns its id.
     */
    message(options: {
      from: string;
      text: string;
      guild?: boolean;
      mentions?: string[];
      bot?: boolean;
    }): string {
      const channelId = options.guild
        ? GUILD_CHANNEL_ID
        : (dmChannels.get(options.from) ??
          dmChannels.set(options.from, nextId()).get(options.from) ??
          '');
      const author = { ...userOf(options.from), ...(options.bot ? { bot: true } : {}) };
      const mentions = (options.mentions ?? []).map((id) => (id === BOT.id ? BOT : userOf(id)));
      const message = apiMessage(channelId, author, options.text, mentions);
      store(message);
      if (!current) return message.id;
      const content = (current.intents & INTENTS.messageContent) === 0 ? '' : options.text;
      dispatch(current, 'MESSAGE_CREATE', {
        ...message,
        content,
        channel_type: options.guild ? 0 : 1,
        ...(options.guild ? { guild_id: GUILD_ID } : {}),
      });
      return message.id;
    },
    /** Every message of a channel, oldest first. */
    history: (channelId: string): readonly APIMessage[] => messages.get(channelId) ?? [],
    /** The DM channel of a user (opened now if it was not). */
    dmChannelOf(userId: string): string {
      const id = dmChannels.get(userId) ?? nextId();
      dmChannels.set(userId, id);
      return id;
    },
    /** The bot loses access to a channel (kicked, or its permissions taken): 403 Missing Access. */
    revokeAccess(channelId: string): void {
      revoked.add(channelId);
    },
    /** Every REST request, as "METHOD /path?query" (without `/api/v10`), in order. */
    requests,
    /** Any dispatch as is (malformed ones included). */
    rawDispatch(t: string, d: unknown): void {
      if (!current) throw new Error('no gateway session');
      dispatch(current, t, d);
    },
    /** A frame that is not JSON at all. */
    rawFrame(text: string): void {
      current?.socket?.send(text);
    },
    /** The server asks the client to reconnect (op 7): it should RESUME. */
    requestReconnect(): void {
      send(current?.socket, { op: 7, s: null, t: null, d: null });
    },
    /** The server invalidates the session (op 9, not resumable): the client must IDENTIFY anew. */
    invalidateSession(): void {
      if (current) sessions.delete(current.id);
      send(current?.socket, { op: 9, s: null, t: null, d: false });
    },
    /** Hostile: the next call whose "METHOD /path" matches `route` answers 200 without end. */
    endlessNext(route: RegExp): void {
      endless.add(route);
    },
    /** Bytes each endless answer wrote before the client cut it, in order. */
    cuts,
    /** The next call whose "METHOD /path" matches `route` answers 429. */
    throttle(route: RegExp, retryAfterSeconds: number): void {
      throttled.set(route, retryAfterSeconds);
    },
    nextSent: (n = 1, timeoutMs = 15_000): Promise<DiscordSent[]> => sentLog.next(n, timeoutMs),
    skipSent: () => sentLog.skip(),
    /** The far end goes away: the server stops and every connection is cut. */
    drop: lifecycle.drop,
    /** The far end is back on the same port (sessions forgotten: the client must IDENTIFY). */
    restore: () => {
      sessions.clear();
      current = undefined;
      return lifecycle.restore();
    },
    close: () => {
      wss.close();
      return lifecycle.close();
    },
  };
}

export type FakeDiscord = Awaited<ReturnType<typeof startFakeDiscord>>;
