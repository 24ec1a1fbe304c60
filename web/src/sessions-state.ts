import type { ApiResponse } from '@hearth/client';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError } from './api.ts';

/**
 * The conversations: which one this browser is in (local storage, so a reload shows it again),
 * the gateway's list of sessions with their titles, search, rename and delete.
 */
const SESSION_ITEM = 'hearth.session_id';
const SESSION_ID = /^[\w.:@=+-]{1,200}$/;

export type SessionItem = ApiResponse<'/sessions'>['sessions'][number];

/** A fresh conversation's id. */
export function newSessionId(): string {
  return `web-${crypto.randomUUID()}`;
}

/**
 * The conversation this browser was last in; '' for this browser's own durable session (the
 * gateway's, from the client id) until its first reply names it.
 */
export function storedSession(): string {
  const id = localStorage.getItem(SESSION_ITEM);
  return id && SESSION_ID.test(id) ? id : '';
}

export function rememberSession(id: string): void {
  if (SESSION_ID.test(id)) localStorage.setItem(SESSION_ITEM, id);
}

/** A session's stored messages, oldest first (none for a session the gateway does not know). */
export async function loadHistory(
  sessionId: string,
): Promise<{ role: 'user' | 'assistant'; text: string }[]> {
  try {
    const page = await api('GET', '/sessions/{session_id}/messages', {
      params: { session_id: sessionId },
      query: { limit: 200 },
    });
    return page.messages;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
}

export interface SessionsState {
  sessions: SessionItem[];
  query: string;
  setQuery: (q: string) => void;
  error?: string;
  refresh: () => void;
  rename: (id: string, title: string) => Promise<boolean>;
  remove: (id: string) => Promise<boolean>;
}

/**
 * The list of sessions, live and stored (so a conversation idle past the live timeout or from
 * before a gateway restart stays listed), filtered by `query`, refreshed when `version` changes.
 */
export function useSessions(live: boolean, version: number): SessionsState {
  const [sessions, setSessions] = useState<SessionItem[]>([]);
  const [query, setQuery] = useState('');
  const [error, setError] = useState<string>();
  const [tick, setTick] = useState(0);
  const refresh = useCallback(() => setTick((n) => n + 1), []);

  useEffect(() => {
    if (!live) return undefined;
    let current = true;
    const q = query.trim().slice(0, 200);
    api('GET', '/sessions', {
      query: { limit: 200, stored: 'true', ...(q ? { q } : {}) },
    }).then(
      (data) => {
        if (!current) return;
        setSessions(data.sessions);
        setError(undefined);
      },
      (e: unknown) => current && setError((e as Error).message),
    );
    return () => {
      current = false;
    };
  }, [live, query, version, tick]);

  const rename = useCallback(
    async (id: string, title: string) => {
      try {
        await api('PATCH', '/sessions/{session_id}', {
          params: { session_id: id },
          body: { title },
        });
        setError(undefined);
        refresh();
        return true;
      } catch (e) {
        setError((e as Error).message);
        return false;
      }
    },
    [refresh],
  );
  const remove = useCallback(
    async (id: string) => {
      try {
        await api('DELETE', '/sessions/{session_id}', { params: { session_id: id } });
        setError(undefined);
        refresh();
        return true;
      } catch (e) {
        setError((e as Error).message);
        return false;
      }
    },
    [refresh],
  );
  return { sessions, query, setQuery, error, refresh, rename, remove };
}
