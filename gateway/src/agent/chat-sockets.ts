import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import type { ZodString } from 'zod';
import { isHearthError } from '../errors.ts';
import { sessionIdSchema } from '../memory/ports.ts';
import type { Metrics } from '../observability/metrics.ts';
import { modelIdSchema } from '../providers/ports.ts';
import {
  createFrameSender,
  parseFrame,
  type FrameSender,
  type FrameSenderLimits,
} from '../ws/send.ts';
import type { ConversationStore } from '../sessions/ports.ts';
import type { ApprovalDecided } from '../approvals/ports.ts';
import type { ChatPipeline, TurnInput, TurnResult } from './pipeline.ts';
import {
  approvalResolvedFrame,
  memoriesField,
  richEventsOf,
  toolCallFrame,
  toolResultFrame,
  type RichEvents,
} from './rich-frames.ts';
import { givenSession } from './socket-sessions.ts';

export interface ChatSocketDeps {
  pipeline: () => ChatPipeline;
  conversations: ConversationStore;
  logger: Logger;
  /** `ws_closed_slow_total`, `ws_frames_rejected_total`. */
  metrics: Metrics;
  /** Back-pressure limits of each socket (DEFAULT_FRAME_LIMITS unless a test lowers them). */
  frameLimits?: Partial<FrameSenderLimits>;
  /** Told of every approval decided in this process (`approval_resolved` frames); unsubscribe. */
  approvalDecided?: (listener: (decided: ApprovalDecided) => void) => () => void;
}

/** The sessions each socket is bound to, so one close listener unbinds it from all. */
type SocketSessions = WeakMap<WebSocket, Set<{ connections: Set<unknown> }>>;

/** Chat turns one socket may have running or queued; more are refused with an error frame. */
export const MAX_WAITING_TURNS = 8;

/** A socket's frame sender (closes a non-reading client, counted) and its turn allowance. */
function socketOutput(socket: WebSocket, deps: ChatSocketDeps) {
  const out = createFrameSender(socket, {
    limits: deps.frameLimits,
    onSlowClose: () => deps.metrics.wsClosedSlowTotal.inc(),
  });
  let waiting = 0;
  return {
    out,
    /** Runs a turn unless MAX_WAITING_TURNS are already waiting; then answers an error frame. */
    startTurn: (run: () => Promise<void>): void => {
      if (waiting >= MAX_WAITING_TURNS) {
        deps.metrics.wsFramesRejectedTotal.inc();
        out.sendNow({
          type: 'error',
          detail: `Too many messages waiting (limit ${MAX_WAITING_TURNS}); wait for message_done`,
        });
        return;
      }
      waiting += 1;
      void run().finally(() => {
        waiting -= 1;
      });
    },
  };
}

/** The error detail of an invalid client-sent value, naming the field; undefined when valid. */
function invalid(field: string, schema: ZodString, value: string): string | undefined {
  const parsed = schema.safeParse(value);
  return parsed.success ? undefined : `${field}: ${parsed.error.issues[0]?.message ?? 'invalid'}`;
}

function errorDetail(error: unknown): string {
  return isHearthError(error) ? error.message : 'Internal server error';
}

/**
 * Joins the socket to a session: the session's frames (approval requests) reach every socket
 * joined to it, and DELETE /sessions/{id} disconnects them all. The socket leaves every session
 * it joined when it closes.
 */
function join(
  socket: WebSocket,
  deps: ChatSocketDeps,
  socketSessions: SocketSessions,
  sessionId: string,
): void {
  const state = deps.conversations.get(sessionId);
  if (state.connections.has(socket)) return;
  state.connections.add(socket);
  // One close listener per socket, however many sessions it talks to.
  let sessions = socketSessions.get(socket);
  if (!sessions) {
    const tracked = new Set<{ connections: Set<unknown> }>();
    sessions = tracked;
    socketSessions.set(socket, tracked);
    socket.once('close', () => {
      for (const session of tracked) session.connections.delete(socket);
    });
  }
  sessions.add(state);
}

/**
 * Streams one turn to a socket, joined to the session; closing the socket mid-stream aborts the
 * upstream generation.
 */
async function streamTurn(
  socket: WebSocket,
  out: FrameSender,
  deps: ChatSocketDeps,
  socketSessions: SocketSessions,
  turn: { sessionId: string; message: string; model?: string },
  frames: {
    chunk: (delta: string) => unknown;
    done: (result: TurnResult) => Record<string, unknown>;
  },
  rich: RichEvents = { tools: false },
): Promise<void> {
  const abort = new AbortController();
  const onClose = () => abort.abort();
  socket.once('close', onClose);
  join(socket, deps, socketSessions, turn.sessionId);
  // Approvals this turn waits on: their decision reaches the socket that asked (opt-in).
  const unsubscribe = rich.tools
    ? deps.approvalDecided?.((decided) => {
        if (decided.approval.session_id === turn.sessionId)
          out.sendNow(approvalResolvedFrame(decided));
      })
    : undefined;
  const toolEvents: Pick<TurnInput, 'onToolCall' | 'onToolResult'> = rich.tools
    ? {
        onToolCall: async (call) => {
          await out.send(toolCallFrame(call));
        },
        onToolResult: async (call, result) => {
          await out.send(toolResultFrame(call, result));
        },
      }
    : {};
  try {
    const result = await deps.pipeline().runTurn({
      sessionId: turn.sessionId,
      message: turn.message,
      model: turn.model,
      channel: 'ws',
      signal: abort.signal,
      onText: async (delta) => {
        await out.send(frames.chunk(delta));
      },
      ...toolEvents,
    });
    await out.send({
      ...frames.done(result),
      ...(result.sources ? { sources: result.sources } : {}),
      ...(rich.tools && result.memories ? { memories: memoriesField(result.memories) } : {}),
    });
  } catch (error) {
    if (!abort.signal.aborted) await out.send({ type: 'error', detail: errorDetail(error) });
  } finally {
    unsubscribe?.();
    socket.off('close', onClose);
  }
}

/**
 * `/ws` (form A): `{type: "chat", message, session_id}` → `{type: "message_chunk", text}`…
 * then `{type: "message_done", text}`. Without a session_id the connection's own session is
 * used: the client id's durable one, else a fresh one; with one, that session is continued
 * (socket-sessions.ts). Bad frames get `{type: "error", detail}` and the socket stays open.
 * `?events=tools` adds the tool, approval-outcome and memory frames (rich-frames.ts).
 */
export function chatSocketFormA(deps: ChatSocketDeps) {
  const socketSessions: SocketSessions = new WeakMap();
  return (socket: WebSocket, request: IncomingMessage): void => {
    const given = givenSession(request);
    const rich = richEventsOf(request);
    const { out, startTurn } = socketOutput(socket, deps);
    socket.on('message', (data) => {
      const frame = parseFrame(data);
      if (!frame)
        return void out.sendNow({
          type: 'error',
          detail: 'Frames must be JSON objects with a type',
        });
      if (frame.type === 'ping') return void out.sendNow({ type: 'pong' });
      if (frame.type !== 'chat')
        return void out.sendNow({
          type: 'error',
          detail: `Unknown frame type '${frame.type}'`,
        });
      if (typeof frame.message !== 'string')
        return void out.sendNow({ type: 'error', detail: 'message: must be a string' });
      const sessionId =
        typeof frame.session_id === 'string' && frame.session_id !== '' ? frame.session_id : given;
      const badId = invalid('session_id', sessionIdSchema, sessionId);
      if (badId) return void out.sendNow({ type: 'error', detail: badId });
      startTurn(() =>
        streamTurn(
          socket,
          out,
          deps,
          socketSessions,
          { sessionId, message: frame.message as string },
          {
            chunk: (text) => ({ type: 'message_chunk', text }),
            done: (result) => ({ type: 'message_done', text: result.reply }),
          },
          rich,
        ),
      );
    });
  };
}

/**
 * `/ws/chat` (form B): `{type: "hello", session_id?}`, `{type: "message", content, model?}`,
 * `{type: "ping"}` → `{type: "message_chunk", delta}`…, `{type: "message_done", session_id,
 * quality_score}`, `{type: "pong"}`. `hello` continues the session it names (or the
 * connection's own) and joins the socket to it, so its frames arrive before the first message;
 * an invalid id is answered with an error and the session stays.
 */
export function chatSocketFormB(deps: ChatSocketDeps) {
  const socketSessions: SocketSessions = new WeakMap();
  return (socket: WebSocket, request: IncomingMessage): void => {
    const { out, startTurn } = socketOutput(socket, deps);
    let sessionId = givenSession(request);
    socket.on('message', (data) => {
      const frame = parseFrame(data);
      if (!frame)
        return void out.sendNow({
          type: 'error',
          detail: 'Frames must be JSON objects with a type',
        });
      switch (frame.type) {
        case 'ping':
          return void out.sendNow({ type: 'pong' });
        case 'hello':
          if (typeof frame.session_id === 'string' && frame.session_id !== '') {
            const badId = invalid('session_id', sessionIdSchema, frame.session_id);
            if (badId) return void out.sendNow({ type: 'error', detail: badId });
            sessionId = frame.session_id;
          }
          join(socket, deps, socketSessions, sessionId);
          return void out.sendNow({ type: 'hello', session_id: sessionId });
        case 'message':
          if (typeof frame.content !== 'string')
            return void out.sendNow({ type: 'error', detail: 'content: must be a string' });
          if (frame.model !== undefined && typeof frame.model !== 'string')
            return void out.sendNow({ type: 'error', detail: 'model: must be a string' });
          if (typeof frame.model === 'string') {
            const badModel = invalid('model', modelIdSchema, frame.model);
            if (badModel) return void out.sendNow({ type: 'error', detail: badModel });
          }
          return startTurn(() =>
            streamTurn(
              socket,
              out,
              deps,
              socketSessions,
              {
                sessionId,
                message: frame.content as string,
                model: frame.model as string | undefined,
              },
              {
                chunk: (delta) => ({ type: 'message_chunk', delta }),
                done: (result) => ({
                  type: 'message_done',
                  session_id: result.sessionId,
                  quality_score: result.qualityScore,
                }),
              },
            ),
          );
        default:
          return void out.sendNow({
            type: 'error',
            detail: `Unknown frame type '${frame.type}'`,
          });
      }
    });
  };
}
