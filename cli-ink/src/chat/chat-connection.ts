/**
 * The chat core of `hearth chat`, with no terminal UI: one WebSocket to the gateway's `/ws`
 * (form A), turns sent one at a time, text deltas handed to a callback.
 */
import { untrustedSourcesOf, type UntrustedSource } from '../../../common/text/command-display.ts';

/** A page the provider's web search cited for the reply. */
export interface ChatSource {
  url: string;
  title?: string;
}

export interface ChatReply {
  text: string;
  sources: ChatSource[];
}

/** An `approval_request` frame: a gated command of this session waits for a decision. */
export interface ApprovalNotice {
  id: string;
  short_id: string;
  tool_name: string;
  command: string;
  text: string;
  /** What the turn read before asking (the frame's `untrusted_sources`; empty when clean). */
  untrusted_sources: UntrustedSource[];
}

export interface ChatConnection {
  /**
   * Sends a message; `onText` gets each delta, `onNotice` each approval request the turn
   * raises; resolves with the full reply.
   */
  send(
    message: string,
    onText: (delta: string) => void,
    onNotice?: (notice: ApprovalNotice) => void,
  ): Promise<ChatReply>;
  close(): void;
}

export class ChatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChatError';
  }
}

export function openChatConnection(
  url: string,
  sessionId: string | undefined,
  timeoutMs = 10_000,
  /** Subprotocols to offer: the API key's `hearth.key.…` when one is set. */
  protocols: string[] = [],
): Promise<ChatConnection> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, protocols);
    const timer = setTimeout(() => {
      socket.close();
      reject(new ChatError(`could not connect to ${url} (timed out)`));
    }, timeoutMs);
    let pending:
      | {
          onText: (delta: string) => void;
          onNotice?: (notice: ApprovalNotice) => void;
          resolve: (reply: ChatReply) => void;
          reject: (error: Error) => void;
        }
      | undefined;

    socket.addEventListener('error', () => {
      clearTimeout(timer);
      const error = new ChatError(`could not connect to ${url}`);
      pending?.reject(error);
      reject(error);
    });
    socket.addEventListener('close', (event) => {
      pending?.reject(
        new ChatError(
          `the gateway closed the connection (${event.code}${event.reason ? `: ${event.reason}` : ''})`,
        ),
      );
      pending = undefined;
    });
    socket.addEventListener('message', (event) => {
      let frame: {
        type?: string;
        text?: string;
        detail?: string;
        sources?: ChatSource[];
      } & Partial<Omit<ApprovalNotice, 'untrusted_sources'>>;
      try {
        frame = JSON.parse(String(event.data)) as typeof frame;
      } catch {
        return;
      }
      if (!pending) return;
      if (frame.type === 'message_chunk' && typeof frame.text === 'string')
        pending.onText(frame.text);
      else if (frame.type === 'approval_request' && typeof frame.id === 'string')
        pending.onNotice?.({
          id: frame.id,
          short_id: frame.short_id ?? frame.id.slice(0, 8),
          tool_name: frame.tool_name ?? '',
          command: frame.command ?? '',
          text: frame.text ?? '',
          untrusted_sources: untrustedSourcesOf(frame),
        });
      else if (frame.type === 'message_done') {
        pending.resolve({
          text: frame.text ?? '',
          sources: Array.isArray(frame.sources) ? frame.sources : [],
        });
        pending = undefined;
      } else if (frame.type === 'error') {
        pending.reject(new ChatError(frame.detail ?? 'the gateway reported an error'));
        pending = undefined;
      }
    });
    socket.addEventListener('open', () => {
      clearTimeout(timer);
      resolve({
        send(message, onText, onNotice) {
          if (pending) return Promise.reject(new ChatError('a message is already in flight'));
          return new Promise<ChatReply>((resolveReply, rejectReply) => {
            pending = { onText, onNotice, resolve: resolveReply, reject: rejectReply };
            socket.send(
              JSON.stringify({
                type: 'chat',
                message,
                ...(sessionId ? { session_id: sessionId } : {}),
              }),
            );
          });
        },
        close: () => socket.close(1000, 'bye'),
      });
    });
  });
}
