/**
 * Each node's memory namespace: long-term rows with the session id `orchestrator/<name>` and
 * that same tag. No client can send that session id (session ids never hold "/"), so chat
 * retrieval, which is per session, never sees a namespace, and clearing one namespace removes
 * exactly its own rows: never another node's, never the main memory.
 */
import type { MemoryEntry, NewMemoryEntry } from '../memory/ports.ts';

/** A namespace keeps its newest rows up to this many; older ones are dropped as new ones come. */
export const MAX_NAMESPACE_ENTRIES = 1000;
/** Longest stored exchange, in characters. */
const MAX_ROW_CHARS = 8000;

export const namespaceOf = (node: string): string => `orchestrator/${node}`;
const PREFIX = 'orchestrator/';

/** The memory the namespaces live in (the memory service over the long-term store). */
export interface NamespaceMemory {
  /** Stores a row in every tier it belongs to (embedded when the embedder is available). */
  store(entry: Omit<NewMemoryEntry, 'embedding'>): Promise<MemoryEntry>;
  /** Newest first. */
  list(filter: { session_id: string; limit: number }): Promise<MemoryEntry[]>;
  /** Removes rows from every tier; count removed. */
  removeEntries(ids: readonly number[]): Promise<number>;
  /** Removes every row of a session from every tier; count removed. */
  removeSession(sessionId: string): Promise<number>;
  sessions(): Promise<{ session_id: string; last_active: number; count: number }[]>;
}

export interface NamespaceStats {
  node: string;
  namespace: string;
  entries: number;
  last_active: number | null;
}

export function createNamespaces(
  memory: () => NamespaceMemory,
  maxEntries = MAX_NAMESPACE_ENTRIES,
) {
  const statsFrom = (
    node: string,
    sessions: Map<string, { last_active: number; count: number }>,
  ): NamespaceStats => {
    const found = sessions.get(namespaceOf(node));
    return {
      node,
      namespace: namespaceOf(node),
      entries: found?.count ?? 0,
      last_active: found?.last_active ?? null,
    };
  };
  const namespaceSessions = async () =>
    new Map(
      (await memory().sessions())
        .filter((s) => s.session_id.startsWith(PREFIX))
        .map((s) => [s.session_id, s]),
    );

  return {
    /** Keeps one routed exchange in the node's namespace, then trims it to its cap. */
    async remember(node: string, task: string, reply: string): Promise<void> {
      const namespace = namespaceOf(node);
      const content = `Task: ${task}\nReply: ${reply}`.slice(0, MAX_ROW_CHARS);
      await memory().store({
        session_id: namespace,
        content,
        importance_score: 0.5,
        tags: [namespace],
        type: 'orchestrator',
      });
      const newest = await memory().list({ session_id: namespace, limit: maxEntries + 100 });
      if (newest.length > maxEntries)
        await memory().removeEntries(newest.slice(maxEntries).map((entry) => entry.id));
    },
    async stats(node: string): Promise<NamespaceStats> {
      return statsFrom(node, await namespaceSessions());
    },
    /** The namespaces of these nodes, in the order given. */
    async all(nodes: readonly string[]): Promise<NamespaceStats[]> {
      const sessions = await namespaceSessions();
      return nodes.map((node) => statsFrom(node, sessions));
    },
    clear: (node: string): Promise<number> => memory().removeSession(namespaceOf(node)),
  };
}

export type Namespaces = ReturnType<typeof createNamespaces>;
