/**
 * A fake LLM provider server on 127.0.0.1 speaking the real wire formats. Tests queue scripted
 * replies and assert on the recorded requests (what the adapters actually sent).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { anthropicMessages } from './anthropic-messages.ts';
import { bedrockConverse } from './bedrock-converse.ts';
import { cohereChat } from './cohere-chat.ts';
import { gemini } from './gemini.ts';
import { ollama } from './ollama.ts';
import { ollamaPull } from './ollama-pull.ts';
import { openAiChat } from './openai-chat.ts';
import { openAiResponses } from './openai-responses.ts';
import { DEFAULT_REPLY, type ReplyScript } from './script.ts';
import type {
  FakeLlmOptions,
  RecordedRequest,
  WireContext,
  WireResponse,
  WireRoute,
} from './wire.ts';

/** Order matters only where paths overlap: Ollama's `/api/chat` before anything ending in `/chat`. */
export const WIRE_ROUTES: readonly WireRoute[] = [
  ollama,
  ollamaPull,
  cohereChat,
  openAiChat,
  openAiResponses,
  anthropicMessages,
  gemini,
  bedrockConverse,
];

export interface FakeLlmServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  /** Every request received, oldest first. */
  requests: RecordedRequest[];
  /** Queues replies; each scripted request takes the oldest. */
  reply: (...scripts: ReplyScript[]) => void;
  /** Scripted replies not yet consumed. */
  pending: () => number;
  /** Forgets recorded requests, queued replies and what the wires remember (a paused turn). */
  reset: () => void;
  close: () => Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

async function send(res: ServerResponse, response: WireResponse, delayMs: number): Promise<void> {
  if (response.kind === 'json') {
    res.writeHead(response.status, { 'content-type': 'application/json', ...response.headers });
    res.end(JSON.stringify(response.body));
    return;
  }
  res.writeHead(200, {
    'content-type': response.contentType,
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  for (const frame of response.frames) {
    if (delayMs > 0) await sleep(delayMs);
    if (res.destroyed) return;
    res.write(frame);
  }
  res.end();
}

/** Where the fake listens: loopback on a random port unless a container serves it to others. */
export interface FakeLlmListen {
  host?: string;
  port?: number;
}

export async function createFakeLlmServer(
  options: FakeLlmOptions = {},
  listen: FakeLlmListen = {},
): Promise<FakeLlmServer> {
  const requests: RecordedRequest[] = [];
  const queue: ReplyScript[] = [];
  const state = new Map<string, unknown>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    const rawBody = await readBody(req);
    const route = WIRE_ROUTES.find((candidate) => candidate.matches(method, url.pathname));
    const request: RecordedRequest = {
      wire: route?.name ?? 'unmatched',
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: headersOf(req),
      body: parseJson(rawBody),
      rawBody,
    };
    requests.push(request);
    res.on('close', () => {
      if (!res.writableFinished) request.abortedByClient = true;
    });
    if (!route) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { message: `fake-llm: no wire format serves ${method} ${url.pathname}` },
        }),
      );
      return;
    }
    const context: WireContext = { request, options, state };
    const invalid = route.validate?.(context);
    if (invalid !== undefined) {
      await send(res, route.error(context, { status: 400, message: invalid }), 0);
      return;
    }
    const script = route.scripted(method, url.pathname)
      ? (queue.shift() ?? options.respond?.(request) ?? options.defaultReply ?? DEFAULT_REPLY)
      : {};
    const response = script.error
      ? route.error(context, script.error)
      : route.respond(context, script);
    await send(res, response, script.chunkDelayMs ?? 0);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `fake-llm: ${String(error)}` } }));
    });
  });
  const host = listen.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(listen.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    requests,
    reply: (...scripts) => {
      queue.push(...scripts);
    },
    pending: () => queue.length,
    reset: () => {
      requests.length = 0;
      queue.length = 0;
      state.clear();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
