/**
 * The embedder area. Importing this file is cheap: `@huggingface/transformers` (and with
 * it onnxruntime-node) is imported only when a model is first loaded or pulled.
 */
export {
  createTransformersEmbedder,
  type TransformersEmbedder,
  type TransformersEmbedderOptions,
} from './transformers-embedder.ts';
export {
  pullEmbeddingModel,
  DEFAULT_MODEL_HUB,
  type PullEmbeddingModelOptions,
  type PullProgress,
  type PulledModel,
} from './pull-model.ts';
export {
  DEFAULT_EMBEDDING_DIMENSIONS,
  DEFAULT_EMBEDDING_MODEL_ID,
  PULL_COMMAND,
  inspectModelFolder,
  modelFolder,
  type ModelDtype,
} from './model-files.ts';
export { semanticAvailable } from './semantic-status.ts';
