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

/**
 * A socket's frame sender (closes a non-reading client, counted), its turn allowance, and the
 * stop of its turns.
 */
function socketOutput(socket: WebSocket, deps: ChatSocketDeps) {
  const out = createFrameSender(socket, {
    limits: deps.frameLimits,
    onSlowClose: () => deps.metrics.wsClosedSlowTotal.inc(),
  });
  let waiting = 0;
  /** The stops of this socket's turns running or waiting, not stopped yet. */
  const stoppable = new Set<AbortController>();
  return {
    out,
    /**
     * `{type: "stop"}`: stops every turn of this socket running or waiting (each ends with its
     * done frame and `stopped: true`); with none, an error frame.
     */
    stop: (): void => {
      if (stoppable.size === 0)
        return void out.sendNow({ type: 'error', detail: 'No reply is being generated to stop' });
      for (const stop of stoppable) stop.abort();
      stoppable.clear();
    },
    /** Runs a turn unless MAX_WAITING_TURNS are already waiting; then answers an error frame. */
    startTurn: (run: (stop: AbortSignal) => Promise<void>): void => {
      if (waiting >= MAX_WAITING_TURNS) {
        deps.metrics.wsFramesRejectedTotal.inc();
        out.sendNow({
          type: 'error',
          detail: `Too many messages waiting (limit ${MAX_WAITING_TURNS}); wait for message_done`,
        });
        return;
      }
      waiting += 1;
      const stop = new AbortController();
      stoppable.add(stop);
      void run(stop.signal).finally(() => {
        waiting -= 1;
        stoppable.delete(stop);
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

/** The done frame of a turn stopped before it could produce a result. */
const stoppedResult = (sessionId: string): TurnResult => ({
  reply: '',
  sessionId,
  provider: 'unknown',
  model: 'unknown',
  usage: { inputTokens: 0, outputTokens: 0 },
  qualityScore: 0,
  finishReason: 'stop',
  toolSteps: 0,
  stopped: true,
});

/** `replace_last` of a chat frame: absent, or a boolean. */
function replaceLastOf(frame: Record<string, unknown>): boolean | string {
  const value = frame.replace_last;
  if (value === undefined) return false;
  return typeof value === 'boolean' ? value : 'replace_last: must be a boolean';
}

/**
 * Streams one turn to a socket, joined to the session; closing the socket mid-stream aborts the
 * upstream generation, and so does `stop` (the turn then ends with its done frame and
 * `stopped: true`, its partial reply kept).
 */
async function streamTurn(
  socket: WebSocket,
  out: FrameSender,
  deps: ChatSocketDeps,
  socketSessions: SocketSessions,
  turn: { sessionId: string; message: string; model?: string; replaceLast: boolean },
  stop: AbortSignal,
  frames: {
    chunk: (delta: string) => unknown;
    done: (result: TurnResult) => Record<string, unknown>;
  },
  rich: RichEvents = { tools: false, session: false },
): Promise<void> {
  const closed = new AbortController();
  const onClose = () => closed.abort();
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
  const sendDone = (result: TurnResult) =>
    out.send({
      ...frames.done(result),
      ...(result.stopped ? { stopped: true } : {}),
      ...(result.sources ? { sources: result.sources } : {}),
      ...(rich.tools && result.memories ? { memories: memoriesField(result.memories) } : {}),
    });
  try {
    const result = await deps.pipeline().runTurn({
      sessionId: turn.sessionId,
      message: turn.message,
      model: turn.model,
      channel: 'ws',
      signal: AbortSignal.any([closed.signal, stop]),
      stopSignal: stop,
      replaceLast: turn.replaceLast,
      onText: async (delta) => {
        await out.send(frames.chunk(delta));
      },
      ...toolEvents,
    });
    await sendDone(result);
  } catch (error) {
    if (closed.signal.aborted) return;
    if (stop.aborted) await sendDone(stoppedResult(turn.sessionId));
    else await out.send({ type: 'error', detail: errorDetail(error) });
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
 * Beyond the spec: `message_done` also names the `session_id` (so a client that sent none learns
 * its own), `{type: "stop"}` stops the socket's turn, and `replace_last: true` on a chat frame
 * makes it replace the session's last exchange (edit and resend).
 */
export function chatSocketFormA(deps: ChatSocketDeps) {
  const socketSessions: SocketSessions = new WeakMap();
  return (socket: WebSocket, request: IncomingMessage): void => {
    const given = givenSession(request);
    const rich = richEventsOf(request);
    const { out, startTurn, stop } = socketOutput(socket, deps);
    socket.on('message', (data) => {
      const frame = parseFrame(data);
      if (!frame)
        return void out.sendNow({
          type: 'error',
          detail: 'Frames must be JSON objects with a type',
        });
      if (frame.type === 'ping') return void out.sendNow({ type: 'pong' });
      if (frame.type === 'stop') return stop();
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
      const replaceLast = replaceLastOf(frame);
      if (typeof replaceLast === 'string')
        return void out.sendNow({ type: 'error', detail: replaceLast });
      startTurn((stopped) =>
        streamTurn(
          socket,
          out,
          deps,
          socketSessions,
          { sessionId, message: frame.message as string, replaceLast },
          stopped,
          {
            chunk: (text) => ({ type: 'message_chunk', text }),
            done: (result) => ({
              type: 'message_done',
              text: result.reply,
              ...(rich.session ? { session_id: result.sessionId } : {}),
            }),
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
 * an invalid id is answered with an error and the session stays. Beyond the spec, as on `/ws`:
 * `{type: "stop"}` and `replace_last: true` on a message frame.
 */
export function chatSocketFormB(deps: ChatSocketDeps) {
  const socketSessions: SocketSessions = new WeakMap();
  return (socket: WebSocket, request: IncomingMessage): void => {
    const { out, startTurn, stop } = socketOutput(socket, deps);
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
        case 'stop':
          return stop();
        case 'hello':
          if (typeof frame.session_id === 'string' && frame.session_id !== '') {
            const badId = invalid('session_id', sessionIdSchema, frame.session_id);
            if (badId) return void out.sendNow({ type: 'error', detail: badId });
            sessionId = frame.session_id;
          }
          join(socket, deps, socketSessions, sessionId);
          return void out.sendNow({ type: 'hello', session_id: sessionId });
        case 'message': {
          if (typeof frame.content !== 'string')
            return void out.sendNow({ type: 'error', detail: 'content: must be a string' });
          if (frame.model !== undefined && typeof frame.model !== 'string')
            return void out.sendNow({ type: 'error', detail: 'model: must be a string' });
          if (typeof frame.model === 'string') {
            const badModel = invalid('model', modelIdSchema, frame.model);
            if (badModel) return void out.sendNow({ type: 'error', detail: badModel });
          }
          const replaceLast = replaceLastOf(frame);
          if (typeof replaceLast === 'string')
            return void out.sendNow({ type: 'error', detail: replaceLast });
          return startTurn((stopped) =>
            streamTurn(
              socket,
              out,
              deps,
              socketSessions,
              {
                sessionId,
                message: frame.content as string,
                model: frame.model as string | undefined,
                replaceLast,
              },
              stopped,
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
        }
        default:
          return void out.sendNow({
            type: 'error',
            detail: `Unknown frame type '${frame.type}'`,
          });
      }
    });
  };
}
