import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { openSocket } from './api.ts';
import { loadHistory } from './sessions-state.ts';
import {
  approvalOf,
  memoriesOf,
  resolveApproval,
  toolCallOf,
  withToolResult,
  type InlineApproval,
  type RecalledMemory,
  type ToolCard,
} from './rich-frames.ts';

export type { InlineApproval, RecalledMemory, ToolCard };

export interface ChatMessage {
  id: number;
  role: 'user' | 'assistant' | 'notice' | 'error' | 'tool' | 'approval';
  text: string;
  streaming?: boolean;
  sources?: { url: string; title?: string }[];
  /** What memory retrieval put into the turn (`message_done.memories`). */
  memories?: RecalledMemory[];
  /** A tool call of the turn and, once it returned, its result (role `tool`). */
  tool?: ToolCard;
  /** An approval the turn waits on, and its outcome once decided (role `approval`). */
  approval?: InlineApproval;
}

export interface ChatState {
  messages: ChatMessage[];
  connected: boolean;
  busy: boolean;
  send: (text: string) => boolean;
  /** Adds a message that arrived another way (a voice turn's transcript and reply). */
  append: (message: Omit<ChatMessage, 'id'>) => void;
  /** Stops the reply being streamed (the partial reply stays). */
  stop: () => void;
  /** Sends `text` in place of the last user message, replacing its exchange. */
  resend: (text: string) => boolean;
  /** Replies finished so far (the conversations list refreshes on each). */
  turns: number;
}

/**
 * The conversation `sessionId` over `/ws` (form A, `?events=tools`) with this browser's
 * persistent client id: its stored history is loaded first, chunks are appended to the reply as
 * they arrive, `message_done` carries the whole reply (and web-search sources, recalled
 * memories); tool calls and their results become tool cards, an `approval_request` an inline
 * approval that `approval_resolved` closes. Reconnects after a drop.
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
  // The id a reply just named for the conversation on screen (this browser's own session, which
  // the page had sent none for): the same conversation, so nothing is reloaded.
  const named = useRef<string>(undefined);
  const shown = useRef(sessionId);
  shown.current = sessionId;

  useEffect(() => {
    if (!live) return undefined;
    if (sessionId !== '' && sessionId === named.current) {
      named.current = undefined;
      return undefined;
    }
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
          sources?: unknown;
          memories?: unknown;
        } & Record<string, unknown>;
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
          if (frame.session_id) {
            if (shown.current === '') named.current = frame.session_id;
            onSession(frame.session_id);
          }
          const sources = Array.isArray(frame.sources)
            ? (frame.sources as ChatMessage['sources'])
            : undefined;
          const memories = memoriesOf(frame.memories);
          setMessages((list) => {
            const last = list.at(-1);
            const done = { role: 'assistant' as const, text: frame.text ?? '', sources, memories };
            if (last?.role === 'assistant' && last.streaming)
              return [...list.slice(0, -1), { ...last, ...done, streaming: false }];
            // Stopped before a word: no empty bubble.
            if (done.text === '') return list;
            return [...list, { id: nextId.current++, ...done }];
          });
        } else if (frame.type === 'tool_call') {
          const tool = toolCallOf(frame);
          // Text streamed before the call stays as it is; what follows is a new reply bubble.
          if (tool)
            setMessages((list) => [
              ...list.map((m) => (m.streaming ? { ...m, streaming: false } : m)),
              { id: nextId.current++, role: 'tool', text: '', tool },
            ]);
        } else if (frame.type === 'tool_result') {
          setMessages((list) => withToolResult(list, frame));
        } else if (frame.type === 'approval_request') {
          const approval = approvalOf(frame);
          if (approval) push({ role: 'approval', text: '', approval });
          onApproval();
        } else if (frame.type === 'approval_resolved') {
          setMessages((list) => resolveApproval(list, frame));
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
  return {
    messages,
    connected,
    busy,
    send: (text: string) => send(text),
    append: push,
    stop,
    resend,
    turns,
  };
}
