/** The embedder port (memory/ports.ts re-exports it): in-process only, no embedding leaves it. */
export type EmbedderState = 'unknown' | 'available' | 'unavailable';

export interface Embedder {
  /** 'unknown' until the first embed call; reading it never triggers a load. */
  readonly state: EmbedderState;
  /** Why it is unavailable (model missing, load failure), for /status and logs. */
  readonly detail: string | null;
  readonly dimensions: number;
  /** Normalised embeddings, one per text. Throws when the model is unavailable. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}
