import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenRestartable } from './restartable-server.ts';
import { createSentLog } from './sent-log.ts';

/** What the fake daemon recorded of one `send`: a number, or `group:<id>` for a group. */
export interface SignalSent {
  chatId: string;
  text: string;
}

interface StoredEvent {
  id: string;
  event: string;
  data: string;
}

type Json = Record<string, unknown>;

/** How many events the daemon keeps for clients reconnecting with `Last-Event-ID`. */
const KEPT_EVENTS = 1_000;

/** JSON-RPC 2.0 error codes signal-cli answers with. */
export const RPC_ERRORS = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  /** signal-cli's "user error" (a bad recipient, an unknown group, …). */
  user: -1,
} as const;

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A wire-faithful fake of signal-cli's HTTP daemon (`signal-cli -a <account> daemon --http`) on
 * 127.0.0.1: `GET /api/v1/check`, `POST /api/v1/rpc` (JSON-RPC 2.0, single or batch; `send`
 * and `sendTyping` with `recipient` or `groupId`; error objects with JSON-RPC codes), and `GET
 * /api/v1/events`, a Server-Sent Events stream of `receive` events (`id:`, `event:receive`,
 * `data:{envelope, account}`) that keeps the last 1000 events and replays those after a
 * `Last-Event-ID`. `drop()` cuts every connection and stops listening; `restore()` listens
 * again on the same port (the daemon kept its events meanwhile).
 */
export async function startFakeSignalCli(account: string) {
  const idPrefix = `${randomBytes(4).toString('hex')}-`;
  const events: StoredEvent[] = [];
  const streams = new Set<ServerResponse>();
  const sentLog = createSentLog<SignalSent>();
  const sent = sentLog.items;
  const typing: string[] = [];
  const calls: string[] = [];
  const groups = new Set<string>();
  const failures = new Map<string, { code: number; message: string }>();
  let sequence = 0;
  let clock = 0;
  /** A hung daemon: connections stay open but nothing is written, and nothing answers. */
  let frozen = false;
  /** Signal timestamps: epoch milliseconds, strictly increasing. */
  const tick = () => (clock = Math.max(Date.now(), clock + 1));

  const writeEvent = (res: ServerResponse, event: StoredEvent) =>
    res.write(
      `id:${event.id}\nevent:${event.event}\n${event.data
        .split('\n')
        .map((line) => `data:${line}\n`)
        .join('')}\n`,
    );

  function emit(event: string, data: string): void {
    const stored = { id: `${idPrefix}${sequence++}`, event, data };
    events.push(stored);
    if (events.length > KEPT_EVENTS) events.shift();
    if (!frozen) for (const res of streams) writeEvent(res, stored);
  }

  function recordSent(chatId: string, text: string) {
    sentLog.push({ chatId, text });
  }

  const rpcError = (id: unknown, code: number, message: string) => ({
    jsonrpc: '2.0',
    error: { code, message, data: null },
    id: id ?? null,
  });

  /** The chat a send/sendTyping addresses, or an error message. */
  function addressed(params: Json): { chatId: string } | { error: string; code: number } {
    if (typeof params.groupId === 'string') {
      if (!groups.has(params.groupId))
        return { code: RPC_ERRORS.user, error: `Invalid group id: ${params.groupId}` };
      return { chatId: `group:${params.groupId}` };
    }
    const recipients = Array.isArray(params.recipient) ? params.recipient : [params.recipient];
    const first: unknown = recipients[0];
    if (typeof first !== 'string' || first === '')
      return { code: RPC_ERRORS.invalidParams, error: 'No recipients given' };
    return { chatId: first };
  }

  function call(request: unknown): Json | undefined {
    if (!isRecord(request))
      return rpcError(null, RPC_ERRORS.invalidRequest, 'request must be an object');
    const { id, method } = request;
    if (typeof method !== 'string')
      return rpcError(id, RPC_ERRORS.invalidRequest, 'method field must be set');
    const params = isRecord(request.params) ? request.params : {};
    calls.push(method);
    const failure = failures.get(method);
    if (failure) {
      failures.delete(method);
      return rpcError(id, failure.code, failure.message);
    }
    switch (method) {
      case 'send': {
        const to = addressed(params);
        if ('error' in to) return rpcError(id, to.code, to.error);
        if (typeof params.message !== 'string' || params.message === '')
          return rpcError(id, RPC_ERRORS.invalidParams, 'No message given');
        recordSent(to.chatId, params.message);
        return { jsonrpc: '2.0', result: { timestamp: tick(), results: [] }, id };
      }
      case 'sendTyping': {
        const to = addressed(params);
        if ('error' in to) return rpcError(id, to.code, to.error);
        typing.push(to.chatId);
        return { jsonrpc: '2.0', result: {}, id };
      }
      case 'version':
        return { jsonrpc: '2.0', result: { version: '0.13.0-fake' }, id };
      default:
        return rpcError(id, RPC_ERRORS.methodNotFound, 'Method not implemented');
    }
  }

  /** Hostile: writes `prefix`, then padding until the client goes away; resolves with the bytes. */
  function endless(res: ServerResponse, prefix: string): Promise<number> {
    const pad = Buffer.alloc(16 * 1024, 0x61);
    let written = 0;
    res.write(prefix);
    const pump = () => {
      while (!res.destroyed && res.write(pad)) written += pad.length;
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
    return new Promise((resolve) => res.once('close', () => resolve(written)));
  }
  /** Methods whose next answer never ends, and what the last such answer wrote before the cut. */
  const endlessAnswers = new Set<string>();
  const cuts: number[] = [];

  async function rpc(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = (() => {
      try {
        return (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { method?: unknown }).method;
      } catch {
        return undefined;
      }
    })();
    if (typeof method === 'string' && endlessAnswers.delete(method)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      cuts.push(await endless(res, '{"jsonrpc":"2.0","result":"'));
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return answer(res, 200, rpcError(null, RPC_ERRORS.parse, 'Parse error'));
    }
    const out = Array.isArray(body) ? body.map(call) : call(body);
    answer(res, 200, out);
  }

  const answer = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  function subscribe(req: IncomingMessage, res: ServerResponse) {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    res.write(':\n');
    const after = req.headers['last-event-id'];
    if (typeof after === 'string') {
      const index = events.findIndex((e) => e.id === after);
      for (const event of index === -1 ? events : events.slice(index + 1)) writeEvent(res, event);
    }
    streams.add(res);
    req.on('close', () => streams.delete(res));
  }

  const server = createServer((req, res) => {
    const path = req.url?.split('?')[0];
    if (frozen) return res.writeHead(503).end();
    if (path === '/api/v1/check' && req.method === 'GET') return res.writeHead(200).end();
    if (path === '/api/v1/events' && req.method === 'GET') return subscribe(req, res);
    if (path === '/api/v1/rpc') {
      if (req.method !== 'POST') return res.writeHead(405).end();
      void rpc(req, res);
      return;
    }
    res.writeHead(404).end();
  });
  const cutStreams = () => {
    for (const res of streams) res.destroy();
    streams.clear();
  };
  const lifecycle = await listenRestartable(server, cutStreams);
  const { port } = lifecycle;

  return {
    rpcUrl: `http://127.0.0.1:${port}`,
    account,
    sent,
    typing,
    calls,
    /** Open event streams (clients subscribed to `/api/v1/events`). */
    subscribers: () => streams.size,
    /** A group the account is a member of. */
    addGroup(groupId: string): void {
      groups.add(groupId);
    },
    /** A text message from `from`, to the account directly or in `groupId`. */
    message(options: {
      from: string;
      text: string;
      groupId?: string;
      name?: string;
      mentions?: { number: string; start: number; length: number; name?: string }[];
    }): void {
      tick();
      const envelope = {
        source: options.from,
        sourceNumber: options.from,
        sourceUuid: `uuid-${options.from}`,
        sourceName: options.name ?? `user ${options.from}`,
        sourceDevice: 1,
        timestamp: clock,
        serverReceivedTimestamp: clock,
        serverDeliveredTimestamp: clock,
        dataMessage: {
          timestamp: clock,
          message: options.text,
          expiresInSeconds: 0,
          viewOnce: false,
          mentions: options.mentions ?? [],
          attachments: [],
          contacts: [],
          ...(options.groupId
            ? {
                groupInfo: {
                  groupId: options.groupId,
                  groupName: 'a group',
                  revision: 1,
                  type: 'DELIVER',
                },
              }
            : {}),
        },
      };
      emit('receive', JSON.stringify({ envelope, account }));
    },
    /** Any event as is (malformed ones included). */
    rawEvent: emit,
    /**
     * Hostile: on every open stream, an event whose data never ends (no line break, ever);
     * resolves with the bytes written to the first stream before the client cut it.
     */
    endlessEvent(): Promise<number> {
      const [first, ...others] = [...streams].map((res) =>
        endless(res, `id:${idPrefix}endless\nevent:receive\ndata:`),
      );
      void Promise.all(others);
      return first ?? Promise.reject(new Error('no open event stream'));
    },
    /** Hostile: the next call of `method` answers 200 with a body that never ends. */
    endlessAnswerNext(method: string): void {
      endlessAnswers.add(method);
    },
    /** Bytes each endless answer wrote before the client cut it, in order. */
    cuts,
    /** The next call of `method` answers with this JSON-RPC error. */
    failNext(method: string, code: number, message: string): void {
      failures.set(method, { code, message });
    },
    nextSent: (n = 1, timeoutMs = 15_000): Promise<SignalSent[]> => sentLog.next(n, timeoutMs),
    skipSent: () => sentLog.skip(),
    /**
     * The daemon hangs: open event streams stay open but silent (a half-open connection), new
     * requests get 503; events keep being stored, to be replayed after `thaw`.
     */
    freeze(): void {
      frozen = true;
    },
    thaw(): void {
      frozen = false;
    },
    /** The daemon goes away: every connection is cut and nothing listens. */
    drop: lifecycle.drop,
    /** The daemon is back on the same port. */
    restore: lifecycle.restore,
    close: lifecycle.close,
  };
}

export type FakeSignalCli = Awaited<ReturnType<typeof startFakeSignalCli>>;
