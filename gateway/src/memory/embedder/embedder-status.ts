import type { EmbedderState } from './port.ts';
import { PULL_COMMAND } from './model-files.ts';

/** The embedder is optional: without its model it is off, and says how to turn it on. */
export const EMBEDDER_OFF = `off (no embedding model; to turn on: ${PULL_COMMAND})`;

/**
 * `/status` `backends.embedder`. `filesPresent` is what the model folder held at start (null
 * when the embedder is not the local model, e.g. in tests): absent files read as off at once,
 * before any load was tried; a load that succeeds later (after a pull) reads as local.
 */
export function embedderBackend(state: EmbedderState, filesPresent: boolean | null): string {
  if (state === 'available') return 'local';
  if (state === 'unavailable' || filesPresent === false) return EMBEDDER_OFF;
  return 'not loaded yet';
}
