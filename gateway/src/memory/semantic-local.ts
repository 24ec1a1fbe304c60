/**
 * Semantic search straight on the long-term store, for `hearth memory search --semantic` when
 * no gateway answers: the query embedded with the local model, compared with the embedding
 * stored beside every row (the same vectors the gateway's in-memory index is rebuilt from),
 * ranked as retrieval ranks its semantic tier.
 */
import type { Embedder, LongTermMemory, SemanticMatch } from './ports.ts';
import { MIN_SEMANTIC_SIMILARITY, semanticScore } from './semantic-rank.ts';

/** Stored embeddings read per page. */
const PAGE = 1_000;

export interface StoredEmbeddingsSearch {
  results: SemanticMatch[];
  /** Rows compared with the query. */
  compared: number;
  /** Rows whose stored embedding has another width (made by another model): not compared. */
  other_model: number;
}

export async function searchStoredEmbeddings(
  deps: { longTerm: LongTermMemory; embedder: Embedder },
  query: string,
  options: { limit: number; session_id?: string },
): Promise<StoredEmbeddingsSearch> {
  const [vector] = await deps.embedder.embed([query]);
  if (vector === undefined) return { results: [], compared: 0, other_model: 0 };
  /** The best `limit` hits so far, best first. */
  const best: { id: number; similarity: number }[] = [];
  let compared = 0;
  let otherModel = 0;
  for (let after = 0; ;) {
    const page = await deps.longTerm.embeddings(after, PAGE);
    if (page.length === 0) break;
    after = page[page.length - 1]?.id ?? after;
    for (const row of page) {
      if (options.session_id !== undefined && row.session_id !== options.session_id) continue;
      if (row.embedding.length !== vector.length) {
        otherModel += 1;
        continue;
      }
      compared += 1;
      let similarity = 0;
      for (let i = 0; i < vector.length; i += 1)
        similarity += (vector[i] ?? 0) * (row.embedding[i] ?? 0);
      if (similarity < MIN_SEMANTIC_SIMILARITY) continue;
      if (best.length === options.limit && similarity <= (best.at(-1)?.similarity ?? -Infinity))
        continue;
      best.push({ id: row.id, similarity });
      best.sort((a, b) => b.similarity - a.similarity);
      if (best.length > options.limit) best.pop();
    }
  }
  const entries = new Map(
    (await deps.longTerm.getMany(best.map((hit) => hit.id))).map((e) => [e.id, e]),
  );
  const results = best
    .flatMap((hit) => {
      const entry = entries.get(hit.id);
      return entry
        ? [
            {
              ...entry,
              similarity: hit.similarity,
              score: semanticScore(hit.similarity, entry.importance_score),
            },
          ]
        : [];
    })
    .sort((a, b) => b.score - a.score);
  return { results, compared, other_model: otherModel };
}
