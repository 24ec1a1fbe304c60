import Database from 'better-sqlite3';
import {
  contentHash,
  normaliseContent,
  type Embedder,
  type LongTermMemory,
  type NewMemoryEntry,
} from '../../memory/ports.ts';
import { memoryRowSchema, type PredecessorMemoryRow } from './formats.ts';

export interface MemoryImport {
  found: number;
  imported: number;
  /** Rows whose content Hearth already holds for the same session (a second run, or twins). */
  duplicates: number;
  /** Rows that could not be read (reported with their id). */
  invalid: { id: unknown; reason: string }[];
  /** Rows stored with an embedding. */
  embedded: number;
  /** Why embeddings were not computed, when they were not. */
  embeddings_skipped: string | null;
}

/** Reads every row of the predecessor's `memory_entries`, read-only. */
export function readPredecessorMemory(path: string): {
  rows: PredecessorMemoryRow[];
  invalid: MemoryImport['invalid'];
} {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const raw = db
      .prepare(
        `select id, session_id, content, importance_score, memory_type, tags, created_at
         from memory_entries order by id`,
      )
      .all() as Record<string, unknown>[];
    const rows: PredecessorMemoryRow[] = [];
    const invalid: MemoryImport['invalid'] = [];
    for (const row of raw) {
      const parsed = memoryRowSchema.safeParse(row);
      if (parsed.success) rows.push(parsed.data);
      else invalid.push({ id: row.id, reason: parsed.error.issues[0]?.message ?? 'invalid row' });
    }
    return { rows, invalid };
  } finally {
    db.close();
  }
}

/** A predecessor row as a Hearth long-term entry (its timestamps kept, tags split). */
export function toHearthEntry(row: PredecessorMemoryRow): NewMemoryEntry {
  const created = Date.parse(row.created_at);
  return {
    session_id: row.session_id,
    content: row.content,
    importance_score: Math.min(1, Math.max(0, row.importance_score)),
    tags: [
      ...new Set(
        row.tags
          .split(',')
          .map((tag) => tag.trim())
          .filter(Boolean),
      ),
    ],
    type: row.memory_type || 'general',
    created_at: Number.isFinite(created) ? Math.floor(created / 1000) : undefined,
  };
}

/**
 * Whether Hearth already holds this content for the session, by content hash (the same text
 * up to spacing and case). The store is searched for the content's longest word, which every
 * spelling of it contains, and the hits are compared by hash.
 */
async function alreadyStored(store: LongTermMemory, entry: NewMemoryEntry): Promise<boolean> {
  const hash = contentHash(entry.content);
  const words = normaliseContent(entry.content).split(' ');
  const probe = words.reduce(
    (longest, word) => (word.length > longest.length ? word : longest),
    '',
  );
  const hits = await store.search(probe, { limit: 1000, session_id: entry.session_id });
  return hits.some((hit) => hit.content_hash === hash);
}

/**
 * Imports the rows into Hearth's long-term store, skipping any Hearth already holds (so a
 * second run adds nothing), with an embedding per row when the embedder has a model. Without
 * `store` (a dry run before Hearth has a store) only twins within the source are told apart.
 */
export async function importMemoryRows(
  rows: readonly PredecessorMemoryRow[],
  store: LongTermMemory | undefined,
  options: { embedder?: Embedder; noEmbedder?: string; dryRun: boolean },
): Promise<Omit<MemoryImport, 'found' | 'invalid'>> {
  let imported = 0;
  let duplicates = 0;
  let embedded = 0;
  let embeddingsSkipped: string | null = options.embedder
    ? null
    : (options.noEmbedder ?? 'no embedding model');
  const seen = new Set<string>();
  for (const row of rows) {
    const entry = toHearthEntry(row);
    const key = `${entry.session_id}\0${contentHash(entry.content)}`;
    if (seen.has(key) || (store && (await alreadyStored(store, entry)))) {
      duplicates += 1;
      continue;
    }
    seen.add(key);
    if (options.dryRun || !store) {
      imported += 1;
      continue;
    }
    let embedding: Float32Array | null = null;
    if (options.embedder && embeddingsSkipped === null) {
      try {
        [embedding = null] = await options.embedder.embed([entry.content]);
      } catch (error) {
        embeddingsSkipped =
          options.embedder.detail ?? (error instanceof Error ? error.message : String(error));
      }
    }
    await store.insert({ ...entry, embedding });
    imported += 1;
    if (embedding) embedded += 1;
  }
  return { imported, duplicates, embedded, embeddings_skipped: embeddingsSkipped };
}
