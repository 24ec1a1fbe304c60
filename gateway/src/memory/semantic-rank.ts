/** How semantic hits are ranked, by retrieval and by semantic search alike. */

/** Semantic hits below this cosine similarity are not offered. */
export const MIN_SEMANTIC_SIMILARITY = 0.1;

/** A hit's rank: its similarity, weighted a little by the row's importance. */
export const semanticScore = (similarity: number, importance: number): number =>
  similarity * (0.75 + 0.25 * importance);
