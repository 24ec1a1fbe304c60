import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { openSocket } from './api.ts';
import { loadHistory } from './sessions-state.ts';
import {
  commandSize,
  displayCommand,
  GLANCE_MAX,
  displayInline,
  readableAtAGlance,
  sourceLines,
  untrustedSourcesOf,
} from '../../common/text/command-display.ts';

export interface ChatMessage {
  id: number;
  role: 'user' | 'assistant' | 'notice' | 'error';
  text: string;
  streaming?: boolean;
  sources?: { url: string; title?: string }[];
}

export interface ChatState {
  messages: ChatMessage[];
  connected: boolean;
  busy: boolean;
  send: (text: string) => boolean;
  /** Stops the reply being streamed (the partial reply stays). */
  stop: () => void;
  /** Sends `text` in place of the last user message, replacing its exchange. */
  resend: (text: string) => boolean;
  /** Replies finished so far (the conversations list refreshes on each). */
  turns: number;
}

/**
 * The conversation `sessionId` over `/ws` (form A) with this browser's persistent client id:
 * its stored history is loaded first, chunks are appended to the reply as they arrive,
 * `message_done` carries the whole reply (and web-search sources), an `approval_request` becomes
 * a notice. Reconnects after a drop.
 */
export function useChat(
  live: boolean,
  onApproval: () => void,
  sessionId: string,
  onSession: (id: string) => void,
): ChatState {
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [connected, setConnected] = useState(false);
  const [busy, setBusy] = useState(false);
  const [turns, setTurns] = useState(0);
  const socket = useRef<WebSocket>(undefined);
  const nextId = useRef(1);

  useEffect(() => {
    if (!live) return undefined;
    let current = true;
    setMessages([]);
    if (sessionId === '') return undefined;
    loadHistory(sessionId).then(
      (history) => {
        if (!current) return;
        setMessages((list) => [
          ...history.map((m) => ({ id: nextId.current++, role: m.role, text: m.text })),
          ...list,
        ]);
      },
      (e: unknown) =>
        current &&
        setMessages((list) => [
          ...list,
          { id: nextId.current++, role: 'error', text: (e as Error).message },
        ]),
    );
    return () => {
      current = false;
    };
  }, [live, sessionId]);

  const push = useCallback((message: Omit<ChatMessage, 'id'>) => {
    setMessages((list) => [...list, { ...message, id: nextId.current++ }]);
  }, []);

  useEffect(() => {
    if (!live) return undefined;
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const connect = () => {
      const ws = openSocket('/ws');
      socket.current = ws;
      ws.onopen = () => setConnected(true);
      ws.onclose = () => {
        setConnected(false);
        setBusy(false);
        if (!stopped) retry = setTimeout(connect, 2_000);
      };
      ws.onmessage = (event: MessageEvent<string>) => {
        const frame = JSON.parse(event.data) as {
          type: string;
          text?: string;
          session_id?: string;
          detail?: string;
          tool_name?: string;
          command?: string;
          sources?: unknown;
        };
        if (frame.type === 'message_chunk') {
          const text = frame.text ?? '';
          setMessages((list) => {
            const last = list.at(-1);
            if (last?.role === 'assistant' && last.streaming)
              return [...list.slice(0, -1), { ...last, text: last.text + text }];
            return [...list, { id: nextId.current++, role: 'assistant', text, streaming: true }];
          });
        } else if (frame.type === 'message_done') {
          setBusy(false);
          setTurns((n) => n + 1);
          if (frame.session_id) onSession(frame.session_id);
          const sources = Array.isArray(frame.sources)
            ? (frame.sources as ChatMessage['sources'])
            : undefined;
          setMessages((list) => {
            const last = list.at(-1);
            const done = { role: 'assistant' as const, text: frame.text ?? '', sources };
            if (last?.role === 'assistant' && last.streaming)
              return [...list.slice(0, -1), { ...last, ...done, streaming: false }];
            // Stopped before a word: no empty bubble.
            if (done.text === '') return list;
            return [...list, { id: nextId.current++, ...done }];
          });
        } else if (frame.type === 'approval_request') {
          const shown = displayCommand(frame.command ?? '');
          const sources = sourceLines(untrustedSourcesOf(frame));
          push({
            role: 'notice',
            text:
              sources.map((line) => `${line}\n`).join('') +
              `Approval needed for ${displayInline(frame.tool_name ?? 'a tool')}: ${shown.text}` +
              `${!readableAtAGlance(shown, GLANCE_MAX) ? ` (${commandSize(shown)})` : ''} — see Approvals.`,
          });
          onApproval();
        } else if (frame.type === 'error') {
          setBusy(false);
          push({ role: 'error', text: frame.detail ?? 'Error' });
        }
      };
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      socket.current?.close();
    };
  }, [live, push, onApproval, onSession]);

  const send = useCallback(
    (text: string, replaceLast = false) => {
      const ws = socket.current;
      if (!ws || ws.readyState !== WebSocket.OPEN || text.trim() === '') return false;
      if (replaceLast)
        setMessages((list) => {
          const last = list.findLastIndex((m) => m.role === 'user');
          return last < 0 ? list : list.slice(0, last);
        });
      push({ role: 'user', text });
      setBusy(true);
      ws.send(
        JSON.stringify({
          type: 'chat',
          message: text,
          ...(sessionId ? { session_id: sessionId } : {}),
          ...(replaceLast ? { replace_last: true } : {}),
        }),
      );
      return true;
    },
    [push, sessionId],
  );
  const stop = useCallback(() => {
    socket.current?.send(JSON.stringify({ type: 'stop' }));
  }, []);
  const resend = useCallback((text: string) => send(text, true), [send]);
  return { messages, connected, busy, send: (text: string) => send(text), stop, resend, turns };
}
