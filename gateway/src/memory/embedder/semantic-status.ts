import type { Embedder } from './port.ts';

/**
 * `/status` → `memory.semantic_available`: null until the first embed call settled the
 * model's load state, then true/false. Reads `state` only, so it never triggers a load.
 */
export function semanticAvailable(embedder: Pick<Embedder, 'state'>): boolean | null {
  switch (embedder.state) {
    case 'unknown':
      return null;
    case 'available':
      return true;
    case 'unavailable':
      return false;
  }
}
