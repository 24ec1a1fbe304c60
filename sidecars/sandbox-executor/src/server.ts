/**
 * The sidecar's HTTP API (node:http, no framework). The server is built here and started in
 * main.ts, so tests run it in-process on a free port.
 *
 *   GET  /health   no token   200 { status: 'ok', backend, isolation, skills, skills_wall }
 *                             | 503 status 'unavailable'
 *   POST /exec     X-Sandbox-Token, JSON body (see exec-body.ts) → 200 result JSON
 *                  401 bad token · 413 body too large · 415 not JSON · 422 { detail } bad body
 *
 * Long calls: when a command is still running after `heartbeatMs` (10 s), the response head
 * (200) is sent and a newline follows every `heartbeatMs`, so that no proxy or client
 * (undici's 300 s headers/body timeouts) gives up on a quiet connection; the result JSON comes
 * last (leading whitespace is valid JSON). A failure after that point is sent as
 * `{ "detail": … }` in the 200 body. A caller that goes away aborts the command.
 *
 *   GET  /skills/host   WebSocket, X-Sandbox-Token: one long-lived skill host (skills/skill-socket.ts)
 *                       401 bad token · 404 when this sidecar hosts no skills · 503 too many hosts
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { ExecRequestError } from './backends/ports.ts';
import type { Backend } from './backends/ports.ts';
import { DEFAULT_LIMITS, formatExecResult, parseExecBody } from './exec-body.ts';
import type { ExecLimits } from './exec-body.ts';
import type { Logger } from './logger.ts';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { SkillLauncher } from './skills/launcher.ts';
import { serveSkillSocket } from './skills/skill-socket.ts';
import type { SkillSocketOptions } from './skills/skill-socket.ts';

export interface SandboxServerOptions {
  backend: Backend;
  /** The shared token callers send in `X-Sandbox-Token`. */
  token: string;
  logger: Logger;
  /** Largest accepted request body (default 1 MiB). */
  maxBodyBytes?: number;
  limits?: Partial<ExecLimits>;
  /** When to send the response head of a long call, and the newline interval after it. */
  heartbeatMs?: number;
  /** Hosts skills on `GET /skills/host` (absent: 404). */
  skills?: Omit<SkillSocketOptions, 'logger'> & {
    launcher: SkillLauncher;
    /** Skill hosts at once (default 32); one more is refused with 503. */
    maxHosts?: number;
  };
}

export const TOKEN_HEADER = 'x-sandbox-token';

class HttpError extends Error {
  readonly status: number;
  constructor(status: number, detail: string) {
    super(detail);
    this.status = status;
  }
}

export function createSandboxServer(options: SandboxServerOptions): Server {
  const { backend, logger } = options;
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const limits: ExecLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const heartbeatMs = options.heartbeatMs ?? 10_000;
  const tokenDigest = digest(options.token);
  const skills = options.skills;

  const tokenMatches = (given: string | string[] | undefined): boolean =>
    typeof given === 'string' && timingSafeEqual(digest(given), tokenDigest);

  async function health(res: ServerResponse): Promise<void> {
    const up = await backend.ping();
    sendJson(res, up ? 200 : 503, {
      status: up ? 'ok' : 'unavailable',
      backend: backend.name,
      isolation: backend.isolation,
      skills: skills ? skills.launcher.isolation : null,
      skills_wall: skills ? (skills.launcher.wall ?? null) : null,
    });
  }

  async function exec(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!tokenMatches(req.headers[TOKEN_HEADER])) {
      throw new HttpError(401, `missing or wrong ${TOKEN_HEADER} header`);
    }
    const type = req.headers['content-type'] ?? '';
    if (!/^application\/json\b/i.test(type)) {
      throw new HttpError(415, 'the body must be application/json');
    }
    const raw = await readBody(req, maxBodyBytes);
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      throw new HttpError(422, 'the body is not valid JSON');
    }
    const parsed = parseExecBody(body, limits);
    if (!parsed.ok) throw new HttpError(422, parsed.detail);

    // The caller going away (its abort or timeout) ends the command.
    const controller = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    let heartbeat: NodeJS.Timeout | undefined;
    const beat = () => {
      if (!res.headersSent) res.writeHead(200, { 'content-type': 'application/json' });
      res.write('\n');
      heartbeat = setTimeout(beat, heartbeatMs);
    };
    heartbeat = setTimeout(beat, heartbeatMs);
    try {
      const result = await backend.run({ ...parsed.request, signal: controller.signal });
      logger.info(
        {
          exitCode: result.exitCode,
          signal: result.signal,
          timedOut: result.timedOut,
          truncated: result.truncated,
          durationMs: Math.round(result.durationMs),
          aborted: controller.signal.aborted,
        },
        'exec finished',
      );
      sendJson(res, 200, formatExecResult(result));
    } finally {
      clearTimeout(heartbeat);
    }
  }

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    let handled: Promise<void>;
    if (path === '/health') {
      handled = req.method === 'GET' || req.method === 'HEAD' ? health(res) : notAllowed('GET');
    } else if (path === '/exec') {
      handled = req.method === 'POST' ? exec(req, res) : notAllowed('POST');
    } else {
      handled = Promise.reject(new HttpError(404, `no route ${req.method} ${path}`));
    }
    handled.catch((error: unknown) => {
      const status =
        error instanceof HttpError ? error.status : error instanceof ExecRequestError ? 422 : 500;
      if (status === 500) logger.error({ error }, 'exec failed');
      const detail = error instanceof Error ? error.message : String(error);
      if (status === 401 || status === 413) res.setHeader('connection', 'close');
      sendJson(res, status, { detail: status === 500 ? `the sandbox failed: ${detail}` : detail });
      if (status === 401 || status === 413 || status === 415) req.resume();
    });
  });
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 8 * 1024 * 1024 });
  let hosts = 0;
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '/').split('?')[0];
    const refuse = (status: number, detail: string) => {
      const body = JSON.stringify({ detail });
      socket.end(
        `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 404 ? 'Not Found' : 'Service Unavailable'}\r\n` +
          `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    };
    if (path !== '/skills/host' || !skills) return refuse(404, `no socket at ${path}`);
    if (!tokenMatches(req.headers[TOKEN_HEADER]))
      return refuse(401, `missing or wrong ${TOKEN_HEADER} header`);
    if (hosts >= (skills.maxHosts ?? 32))
      return refuse(503, 'too many skill hosts are running in the sandbox');
    sockets.handleUpgrade(req, socket, head, (ws) => {
      hosts += 1;
      ws.once('close', () => (hosts -= 1));
      serveSkillSocket(ws, { ...skills, logger });
    });
  });
  server.on('close', () => {
    for (const client of sockets.clients) client.terminate();
  });
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
  });
  return server;
}

function notAllowed(allowed: string): Promise<void> {
  return Promise.reject(new HttpError(405, `method not allowed (use ${allowed})`));
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.writableEnded || res.destroyed) return;
  const text = JSON.stringify(body);
  if (res.headersSent) {
    res.end(text); // a long call whose head went out already: the status stays 200
    return;
  }
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? '0');
    if (declared > limit) {
      reject(new HttpError(413, `the body is larger than ${limit} bytes`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        reject(new HttpError(413, `the body is larger than ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}
