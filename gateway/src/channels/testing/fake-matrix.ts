import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenRestartable } from './restartable-server.ts';
import { createSentLog } from './sent-log.ts';

/** What the fake homeserver recorded of one `m.room.message` the bot sent. */
export interface MatrixSent {
  roomId: string;
  txnId: string;
  body: string;
}

type Json = Record<string, unknown>;

interface MatrixEvent extends Json {
  type: string;
  event_id: string;
  sender: string;
  origin_server_ts: number;
  content: unknown;
  state_key?: string;
}

interface Room {
  id: string;
  /** Current state, by `type\u0000state_key`. */
  state: Map<string, MatrixEvent>;
  timeline: { position: number; event: MatrixEvent }[];
}

/** Something a `/sync` after `position` reports. */
type SyncItem =
  | { position: number; kind: 'timeline'; roomId: string }
  | { position: number; kind: 'invite'; roomId: string; inviter: string; isDirect: boolean };

const SERVER = 'fake.test';

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A wire-faithful fake of a Matrix homeserver's client-server API on 127.0.0.1, enough for a
 * bot: `GET /_matrix/client/versions`, `/v3/account/whoami`, `/v3/pushrules/`, filters, `GET
 * /v3/sync` long-polling with `since`/`timeout` and an opaque `next_batch` (initial sync: the
 * full state of joined rooms and their latest events; later: new timeline events and invites),
 * `PUT /v3/rooms/{roomId}/send/m.room.message/{txnId}` (idempotent per access token and
 * transaction id), `PUT /v3/rooms/{roomId}/typing/{userId}`, `POST /v3/join/{roomId}` and
 * `/v3/rooms/{roomId}/join`. Errors are the spec's `{errcode, error}` bodies: `M_MISSING_TOKEN`
 * and `M_UNKNOWN_TOKEN` 401, `M_FORBIDDEN` 403, `M_NOT_JSON`/`M_BAD_JSON` 400, `M_UNRECOGNIZED`
 * 404, and `M_LIMIT_EXCEEDED` 429 with `retry_after_ms` on demand. `drop()` cuts every
 * connection and stops listening; `restore()` listens again on the same port.
 */
export async function startFakeMatrix(options: {
  userId: string;
  token: string;
  displayName?: string;
}) {
  const { userId: botId, token } = options;
  const botName = options.displayName ?? 'Hearth';
  const rooms = new Map<string, Room>();
  const items: SyncItem[] = [];
  const sentLog = createSentLog<MatrixSent>();
  const sent = sentLog.items;
  const typing: { roomId: string; typing: boolean }[] = [];
  const calls: string[] = [];
  const transactions = new Map<string, string>();
  const throttled = new Map<string, number>();
  let pollers: (() => void)[] = [];
  let position = 0;
  let nextEvent = 1;
  let revoked = false;
  let corruptSyncs = 0;
  /** Hostile: long polls that answer without end; bytes each wrote before it was cut. */
  let endlessSyncs = 0;
  const cuts: number[] = [];
  /** The `since` of the latest /sync: what the client has seen. */
  let lastSince = 0;

  const wake = () => {
    const waiting = pollers;
    pollers = [];
    for (const resolve of waiting) resolve();
  };

  const answer = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const fail = (
    res: ServerResponse,
    status: number,
    errcode: string,
    error: string,
    extra: Json = {},
  ) => answer(res, status, { errcode, error, ...extra });

  const stateKey = (type: string, key: string) => `${type}\u0000${key}`;
  const memberOf = (room: Room, user: string) =>
    (room.state.get(stateKey('m.room.member', user))?.content as Json | undefined)?.membership;

  function makeEvent(type: string, sender: string, content: unknown, state?: string): MatrixEvent {
    return {
      type,
      event_id: `$${nextEvent++}-${Math.random().toString(36).slice(2, 8)}:${SERVER}`,
      sender,
      origin_server_ts: Date.now(),
      content,
      ...(state === undefined ? {} : { state_key: state }),
      unsigned: { age: 0 },
    };
  }

  function append(room: Room, event: MatrixEvent): void {
    position += 1;
    if (event.state_key !== undefined) room.state.set(stateKey(event.type, event.state_key), event);
    room.timeline.push({ position, event });
    items.push({ position, kind: 'timeline', roomId: room.id });
    wake();
  }

  function createRoom(
    id: string,
    creator: string,
    members: { user: string; membership: string; isDirect?: boolean }[],
  ) {
    const room: Room = { id, state: new Map(), timeline: [] };
    rooms.set(id, room);
    const seed = (event: MatrixEvent) => {
      position += 1;
      room.state.set(stateKey(event.type, event.state_key ?? ''), event);
      room.timeline.push({ position, event });
    };
    seed(makeEvent('m.room.create', creator, { creator, room_version: '10' }, ''));
    for (const m of members)
      seed(
        makeEvent(
          'm.room.member',
          m.membership === 'invite' ? creator : m.user,
          {
            membership: m.membership,
            displayname: m.user === botId ? botName : m.user.replace(/^@/, '').split(':')[0],
            ...(m.isDirect ? { is_direct: true } : {}),
          },
          m.user,
        ),
      );
    items.push({ position, kind: 'timeline', roomId: id });
    wake();
    return room;
  }

  function members(room: Room, membership: string): string[] {
    return [...room.state.values()]
      .filter((e) => e.type === 'm.room.member' && (e.content as Json).membership === membership)
      .map((e) => e.state_key ?? '');
  }

  function roomSync(room: Room, since: number, limit: number): Json {
    const joinedAt =
      room.timeline.find(
        (t) =>
          t.event.type === 'm.room.member' &&
          t.event.state_key === botId &&
          (t.event.content as Json).membership === 'join',
      )?.position ?? 0;
    const fresh = since === 0 || joinedAt > since;
    const newer = room.timeline.filter((t) => t.position > since);
    const timeline = (fresh ? room.timeline.slice(-limit) : newer).map((t) => t.event);
    const inTimeline = new Set(timeline.map((e) => e.event_id));
    return {
      state: {
        events: fresh ? [...room.state.values()].filter((e) => !inTimeline.has(e.event_id)) : [],
      },
      timeline: {
        events: timeline,
        limited: fresh && room.timeline.length > limit,
        prev_batch: `p${since}`,
      },
      ephemeral: { events: [] },
      account_data: { events: [] },
      summary: {
        'm.heroes': members(room, 'join')
          .filter((u) => u !== botId)
          .slice(0, 5),
        'm.joined_member_count': members(room, 'join').length,
        'm.invited_member_count': members(room, 'invite').length,
      },
      unread_notifications: { highlight_count: 0, notification_count: 0 },
    };
  }

  function syncBody(since: number, limit: number): Json {
    const join: Json = {};
    const invite: Json = {};
    for (const room of rooms.values()) {
      const membership = memberOf(room, botId);
      if (membership === 'join' && (since === 0 || room.timeline.some((t) => t.position > since)))
        join[room.id] = roomSync(room, since, limit);
    }
    for (const item of items) {
      if (item.kind !== 'invite' || item.position <= since) continue;
      const room = rooms.get(item.roomId);
      if (!room || memberOf(room, botId) !== 'invite') continue;
      invite[item.roomId] = {
        invite_state: {
          events: [
            {
              type: 'm.room.create',
              sender: item.inviter,
              state_key: '',
              content: { creator: item.inviter },
            },
            {
              type: 'm.room.member',
              sender: item.inviter,
              state_key: botId,
              content: {
                membership: 'invite',
                displayname: botName,
                ...(item.isDirect ? { is_direct: true } : {}),
              },
            },
            {
              type: 'm.room.member',
              sender: item.inviter,
              state_key: item.inviter,
              content: { membership: 'join' },
            },
          ],
        },
      };
    }
    return {
      next_batch: `s${position}`,
      rooms: { join, invite, leave: {} },
      presence: { events: [] },
      account_data: { events: [] },
      to_device: { events: [] },
      device_lists: { changed: [], left: [] },
      device_one_time_keys_count: {},
    };
  }

  async function sync(url: URL, req: IncomingMessage, res: ServerResponse) {
    const sinceText = url.searchParams.get('since');
    const since = sinceText === null ? 0 : Number(sinceText.replace(/^s/, ''));
    if (!Number.isInteger(since) || since < 0 || since > position)
      return fail(res, 400, 'M_INVALID_PARAM', 'Invalid since token');
    lastSince = since;
    const timeout = Math.min(Number(url.searchParams.get('timeout') ?? 0) || 0, 60_000);
    let limit = 10;
    const filter = url.searchParams.get('filter');
    if (filter?.startsWith('{')) {
      try {
        const parsed = JSON.parse(filter) as { room?: { timeline?: { limit?: number } } };
        limit = parsed.room?.timeline?.limit ?? limit;
      } catch {
        return fail(res, 400, 'M_INVALID_PARAM', 'filter is not valid JSON');
      }
    }
    const hasNews = () => items.some((i) => i.position > since);
    if (sinceText !== null && !hasNews() && timeout > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeout);
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
    if (endlessSyncs > 0) {
      endlessSyncs -= 1;
      res.writeHead(200, { 'content-type': 'application/json' }).write('{"next_batch":"');
      const pad = Buffer.alloc(64 * 1024, 0x61);
      let written = 0;
      const pump = () => {
        while (!res.destroyed && res.write(pad)) written += pad.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      res.once('close', () => cuts.push(written));
      return pump();
    }
    if (corruptSyncs > 0) {
      corruptSyncs -= 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"next_batch": ');
      return;
    }
    answer(res, 200, syncBody(since, Math.max(0, limit)));
  }

  async function readJson(req: IncomingMessage): Promise<Json | undefined> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    if (text === '') return {};
    try {
      const parsed: unknown = JSON.parse(text);
      return isRecord(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }

  function join(roomId: string, res: ServerResponse) {
    const room = rooms.get(roomId);
    const membership = room ? memberOf(room, botId) : undefined;
    if (!room || (membership !== 'invite' && membership !== 'join'))
      return fail(res, 403, 'M_FORBIDDEN', 'You are not invited to this room.');
    if (membership !== 'join')
      append(
        room,
        makeEvent('m.room.member', botId, { membership: 'join', displayname: botName }, botId),
      );
    answer(res, 200, { room_id: roomId });
  }

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const path = url.pathname;
      calls.push(`${req.method} ${path}`);
      if (path === '/_matrix/client/versions')
        return answer(res, 200, {
          versions: [
            'v1.1',
            'v1.2',
            'v1.3',
            'v1.4',
            'v1.5',
            'v1.6',
            'v1.7',
            'v1.8',
            'v1.9',
            'v1.10',
            'v1.11',
          ],
          unstable_features: {},
        });
      if (!path.startsWith('/_matrix/client/v3/'))
        return fail(res, 404, 'M_UNRECOGNIZED', 'Unrecognized request');
      const auth = req.headers.authorization;
      const given = auth?.startsWith('Bearer ')
        ? auth.slice(7)
        : url.searchParams.get('access_token');
      if (!given) return fail(res, 401, 'M_MISSING_TOKEN', 'Missing access token');
      if (given !== token || revoked)
        return fail(res, 401, 'M_UNKNOWN_TOKEN', 'Invalid access token passed.', {
          soft_logout: false,
        });
      const rest = path.slice('/_matrix/client/v3'.length).split('/').map(decodeURIComponent);
      const route = rest.slice(1);
      const throttle = throttled.get(route[0] === 'rooms' ? (route[2] ?? '') : (route[0] ?? ''));
      if (throttle !== undefined) {
        throttled.delete(route[0] === 'rooms' ? (route[2] ?? '') : (route[0] ?? ''));
        return fail(res, 429, 'M_LIMIT_EXCEEDED', 'Too Many Requests', {
          retry_after_ms: throttle,
        });
      }
      const method = req.method ?? 'GET';
      if (method === 'GET' && route[0] === 'sync') return sync(url, req, res);
      if (method === 'GET' && route[0] === 'account' && route[1] === 'whoami')
        return answer(res, 200, { user_id: botId, device_id: 'HEARTHFAKE', is_guest: false });
      if (method === 'GET' && route[0] === 'pushrules')
        return answer(res, 200, {
          global: { override: [], content: [], room: [], sender: [], underride: [] },
        });
      if (method === 'GET' && route[0] === 'capabilities')
        return answer(res, 200, { capabilities: { 'm.change_password': { enabled: false } } });
      if (route[0] === 'user' && route[2] === 'filter') {
        if (route[1] !== botId)
          return fail(res, 403, 'M_FORBIDDEN', 'Cannot create filters for other users');
        if (method === 'POST') return answer(res, 200, { filter_id: '1' });
        return answer(res, 200, {});
      }
      if (method === 'POST' && route[0] === 'join' && route[1]) return join(route[1], res);
      if (method === 'POST' && route[0] === 'rooms' && route[2] === 'join' && route[1])
        return join(route[1], res);
      if (method === 'PUT' && route[0] === 'rooms' && route[1]) {
        const body = await readJson(req);
        if (body === undefined) return fail(res, 400, 'M_NOT_JSON', 'Content not JSON.');
        const room = rooms.get(route[1]);
        if (!room || memberOf(room, botId) !== 'join')
          return fail(res, 403, 'M_FORBIDDEN', `User ${botId} not in room ${route[1]}`);
        if (route[2] === 'typing' && route[3]) {
          if (route[3] !== botId)
            return fail(res, 403, 'M_FORBIDDEN', 'Cannot set another user typing');
          if (typeof body.typing !== 'boolean')
            return fail(res, 400, 'M_BAD_JSON', 'typing must be a boolean');
          typing.push({ roomId: room.id, typing: body.typing });
          return answer(res, 200, {});
        }
        if (route[2] === 'send' && route[3] && route[4]) {
          const key = `${given}\u0000${route[4]}`;
          const done = transactions.get(key);
          if (done) return answer(res, 200, { event_id: done });
          if (route[3] === 'm.room.message' && typeof body.body !== 'string')
            return fail(res, 400, 'M_BAD_JSON', 'body must be a string');
          if (JSON.stringify(body).length > 65_536)
            return fail(res, 413, 'M_TOO_LARGE', 'event too large');
          const event = makeEvent(route[3], botId, body);
          transactions.set(key, event.event_id);
          append(room, event);
          if (route[3] === 'm.room.message') {
            sentLog.push({ roomId: room.id, txnId: route[4], body: body.body as string });
          }
          return answer(res, 200, { event_id: event.event_id });
        }
      }
      return fail(res, 404, 'M_UNRECOGNIZED', 'Unrecognized request');
    })();
  });
  const lifecycle = await listenRestartable(server, wake);
  const { port } = lifecycle;

  return {
    homeserverUrl: `http://127.0.0.1:${port}`,
    botId,
    botName,
    sent,
    typing,
    calls,
    /** A room the bot is already in with `user` only (a direct chat). */
    directRoom(roomId: string, user: string): void {
      if (!rooms.has(roomId))
        createRoom(roomId, user, [
          { user, membership: 'join' },
          { user: botId, membership: 'join' },
        ]);
    },
    /** A room the bot is already in with several `users`. */
    groupRoom(roomId: string, users: string[]): void {
      if (!rooms.has(roomId))
        createRoom(roomId, users[0] ?? botId, [
          ...users.map((user) => ({ user, membership: 'join' })),
          { user: botId, membership: 'join' },
        ]);
    },
    /**
     * `inviter` creates a room (with `others` in it too) and invites the bot: a direct chat when
     * `isDirect` (the invite's `is_direct`).
     */
    invite(roomId: string, inviter: string, isDirect: boolean, others: string[] = []): void {
      createRoom(roomId, inviter, [
        { user: inviter, membership: 'join' },
        ...others.map((user) => ({ user, membership: 'join' })),
        { user: botId, membership: 'invite', isDirect },
      ]);
      position += 1;
      items.push({ position, kind: 'invite', roomId, inviter, isDirect });
      wake();
    },
    /** Resolves once the client synced past everything that happened so far. */
    async caughtUp(timeoutMs = 15_000): Promise<void> {
      const target = position;
      const deadline = Date.now() + timeoutMs;
      while (lastSince < target) {
        if (Date.now() > deadline) throw new Error(`the client did not sync past ${target}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    membership: (roomId: string) => {
      const room = rooms.get(roomId);
      return room ? memberOf(room, botId) : undefined;
    },
    /** An `m.room.message` from `sender` in `roomId` (a text by default). */
    message(roomId: string, sender: string, body: string, extra: Json = {}): void {
      const room = rooms.get(roomId);
      if (!room) throw new Error(`no room ${roomId}`);
      // A homeserver takes messages only from the room's members.
      if (memberOf(room, sender) !== 'join') throw new Error(`${sender} is not in ${roomId}`);
      append(room, makeEvent('m.room.message', sender, { msgtype: 'm.text', body, ...extra }));
    },
    /** Any event in a room's timeline as is (malformed ones included). */
    rawEvent(roomId: string, event: Json): void {
      const room = rooms.get(roomId);
      if (!room) throw new Error(`no room ${roomId}`);
      append(room, { ...makeEvent('m.room.message', '@nobody:fake.test', {}), ...event });
    },
    /** The next request of this kind (`send`, `typing`, `sync`, `join`…) answers 429. */
    throttle(kind: string, retryAfterMs: number): void {
      throttled.set(kind, retryAfterMs);
    },
    /** Hostile: the next long poll answers a body that never ends. */
    endlessSync(): void {
      endlessSyncs += 1;
      wake();
    },
    /** Bytes each endless answer wrote before the client cut it, in order. */
    cuts,
    /** The next `n` long polls answer a body that is not valid JSON. */
    corruptSync(n = 1): void {
      corruptSyncs = n;
      wake();
    },
    /** The access token is logged out: every request answers 401 M_UNKNOWN_TOKEN. */
    revokeToken(): void {
      revoked = true;
      wake();
    },
    nextSent: (n = 1, timeoutMs = 15_000): Promise<MatrixSent[]> => sentLog.next(n, timeoutMs),
    skipSent: () => sentLog.skip(),
    drop: lifecycle.drop,
    restore: lifecycle.restore,
    close: lifecycle.close,
  };
}

export type FakeMatrix = Awaited<ReturnType<typeof startFakeMatrix>>;
