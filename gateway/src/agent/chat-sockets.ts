import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import { isHearthError } from '../errors.ts';
import { parseFrame, sendJson } from '../ws/send.ts';
import type { ConversationStore } from './conversations.ts';
import type { ChatPipeline, TurnResult } from './pipeline.ts';
import { bindSocketSessions, foreignSessionDetail, type SessionOwners } from './socket-sessions.ts';

export interface ChatSocketDeps {
  pipeline: () => ChatPipeline;
  conversations: ConversationStore;
  logger: Logger;
  /** Which holder owns which session, shared by `/ws` and `/ws/chat` (see socket-sessions.ts). */
  sessionOwners: SessionOwners;
}

/** The sessions each socket is bound to, so one close listener unbinds it from all. */
type SocketSessions = WeakMap<WebSocket, Set<{ connections: Set<unknown> }>>;

function errorDetail(error: unknown): string {
  return isHearthError(error) ? error.message : 'Internal server error';
}

/**
 * Streams one turn to a socket. The socket is bound to the session (DELETE /sessions/{id}
 * disconnects it); closing the socket mid-stream aborts the upstream generation.
 */
async function streamTurn(
  socket: WebSocket,
  deps: ChatSocketDeps,
  socketSessions: SocketSessions,
  turn: { sessionId: string; message: string; model?: string },
  frames: {
    chunk: (delta: string) => unknown;
    done: (result: TurnResult) => Record<string, unknown>;
  },
): Promise<void> {
  const abort = new AbortController();
  const onClose = () => abort.abort();
  socket.once('close', onClose);
  const state = deps.conversations.get(turn.sessionId);
  if (!state.connections.has(socket)) {
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
  try {
    const result = await deps.pipeline().runTurn({
      sessionId: turn.sessionId,
      message: turn.message,
      model: turn.model,
      channel: 'ws',
      signal: abort.signal,
      onText: async (delta) => {
        await sendJson(socket, frames.chunk(delta));
      },
    });
    await sendJson(socket, {
      ...frames.done(result),
      ...(result.sources ? { sources: result.sources } : {}),
    });
  } catch (error) {
    if (!abort.signal.aborted)
      await sendJson(socket, { type: 'error', detail: errorDetail(error) });
  } finally {
    socket.off('close', onClose);
  }
}

/**
 * `/ws` (form A): `{type: "chat", message, session_id}` → `{type: "message_chunk", text}`…
 * then `{type: "message_done", text}`. Without a session_id the connection's own session is
 * used: the client id's durable one, else a fresh one. A session_id may name only a session of
 * this connection or client id, or a new one (socket-sessions.ts). Bad frames get
 * `{type: "error", detail}` and the socket stays open.
 */
export function chatSocketFormA(deps: ChatSocketDeps) {
  const socketSessions: SocketSessions = new WeakMap();
  return (socket: WebSocket, request: IncomingMessage): void => {
    const binding = bindSocketSessions(deps.sessionOwners, request, deps.conversations);
    socket.on('message', (data) => {
      const frame = parseFrame(data);
      if (!frame)
        return void sendJson(socket, {
          type: 'error',
          detail: 'Frames must be JSON objects with a type',
        });
      if (frame.type === 'ping') return void sendJson(socket, { type: 'pong' });
      if (frame.type !== 'chat')
        return void sendJson(socket, {
          type: 'error',
          detail: `Unknown frame type '${frame.type}'`,
        });
      if (typeof frame.message !== 'string')
        return void sendJson(socket, { type: 'error', detail: 'message: must be a string' });
      const sessionId =
        typeof frame.session_id === 'string' && frame.session_id !== ''
          ? frame.session_id
          : binding.given;
      if (!binding.mayUse(sessionId))
        return void sendJson(socket, { type: 'error', detail: foreignSessionDetail(sessionId) });
      void streamTurn(
        socket,
        deps,
        socketSessions,
        { sessionId, message: frame.message },
        {
          chunk: (text) => ({ type: 'message_chunk', text }),
          done: (result) => ({ type: 'message_done', text: result.reply }),
        },
      );
    });
  };
}

/**
 * `/ws/chat` (form B): `{type: "hello", session_id?}`, `{type: "message", content, model?}`,
 * `{type: "ping"}` → `{type: "message_chunk", delta}`…, `{type: "message_done", session_id,
 * quality_score}`, `{type: "pong"}`. `hello` may name only a session of this connection or
 * client id, or a new one; otherwise it is answered with an error and the session stays.
 */
export function chatSocketFormB(deps: ChatSocketDeps) {
  const socketSessions: SocketSessions = new WeakMap();
  return (socket: WebSocket, request: IncomingMessage): void => {
    const binding = bindSocketSessions(deps.sessionOwners, request, deps.conversations);
    let sessionId = binding.given;
    socket.on('message', (data) => {
      const frame = parseFrame(data);
      if (!frame)
        return void sendJson(socket, {
          type: 'error',
          detail: 'Frames must be JSON objects with a type',
        });
      switch (frame.type) {
        case 'ping':
          return void sendJson(socket, { type: 'pong' });
        case 'hello':
          if (typeof frame.session_id === 'string' && frame.session_id !== '') {
            if (!binding.mayUse(frame.session_id))
              return void sendJson(socket, {
                type: 'error',
                detail: foreignSessionDetail(frame.session_id),
              });
            sessionId = frame.session_id;
          }
          return void sendJson(socket, { type: 'hello', session_id: sessionId });
        case 'message':
          if (typeof frame.content !== 'string')
            return void sendJson(socket, { type: 'error', detail: 'content: must be a string' });
          return void streamTurn(
            socket,
            deps,
            socketSessions,
            {
              sessionId,
              message: frame.content,
              model: typeof frame.model === 'string' ? frame.model : undefined,
            },
            {
              chunk: (delta) => ({ type: 'message_chunk', delta }),
              done: (result) => ({
                type: 'message_done',
                session_id: result.sessionId,
                quality_score: result.qualityScore,
              }),
            },
          );
        default:
          return void sendJson(socket, {
            type: 'error',
            detail: `Unknown frame type '${frame.type}'`,
          });
      }
    });
  };
}
