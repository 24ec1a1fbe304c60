import { silentLogger } from '../../observability/logger.ts';
import {
  createTransformersEmbedder,
  DEFAULT_EMBEDDING_MODEL_ID,
  inspectModelFolder,
  type Embedder,
} from '../../memory/ports.ts';

/** The gateway's embedder when its model is in the cache; else why embeddings are skipped. */
export async function localEmbedder(
  modelDir: string,
): Promise<{ embedder?: Embedder; unavailable?: string }> {
  const check = await inspectModelFolder(modelDir, DEFAULT_EMBEDDING_MODEL_ID);
  if (!check.ok) return { unavailable: check.detail };
  return { embedder: createTransformersEmbedder({ modelDir, logger: silentLogger() }) };
}
