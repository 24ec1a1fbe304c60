/**
 * Ollama's `POST /api/pull` {model, stream}: NDJSON progress lines (`status`, and `digest`,
 * `total`, `completed` while a layer downloads), ending with `{"status":"success"}`, or an
 * `{"error": …}` line for a model the registry does not have. A pulled model is listed by
 * `GET /api/tags` from then on.
 * https://github.com/ollama/ollama/blob/main/docs/api.md#pull-a-model
 */
import { bodyOf, json, type JsonObject, type WireContext, type WireRoute } from './wire.ts';

const PULLED = 'ollama:pulled';
const LAYER_BYTES = 2_019_393_189;
const LAYER_DIGEST = 'sha256:dde5aa3fc5ffc17176b5e8bdc82f587b24b2678c6c66101bf7da77af9f7ccdff';

/** The models pulled on this server so far (a wire's memory, cleared by `reset()`). */
export function pulledModels(context: WireContext): string[] {
  const pulled = context.state.get(PULLED);
  return Array.isArray(pulled) ? pulled.filter((name) => typeof name === 'string') : [];
}

function pullable(context: WireContext, model: string): boolean {
  const known = context.options.ollamaPullable;
  return known === undefined || known.includes(model);
}

export const ollamaPull: WireRoute = {
  name: 'ollama-pull',
  matches: (method, path) => method === 'POST' && path.endsWith('/api/pull'),
  scripted: () => false,
  validate: (context) => {
    const model = bodyOf(context.request).model;
    return typeof model === 'string' && model !== '' ? undefined : 'model is required';
  },
  respond: (context) => {
    const model = String(bodyOf(context.request).model);
    const frames: JsonObject[] = [{ status: 'pulling manifest' }];
    if (!pullable(context, model)) {
      frames.push({ error: 'pull model manifest: file does not exist' });
    } else {
      for (const share of [0, 0.25, 0.5, 0.75, 1]) {
        frames.push({
          status: `pulling ${LAYER_DIGEST.slice(7, 19)}`,
          digest: LAYER_DIGEST,
          total: LAYER_BYTES,
          completed: Math.round(LAYER_BYTES * share),
        });
      }
      frames.push({ status: 'verifying sha256 digest' }, { status: 'writing manifest' });
      frames.push({ status: 'success' });
      context.state.set(PULLED, [...new Set([...pulledModels(context), model])]);
    }
    if (bodyOf(context.request).stream === false) return json(200, frames.at(-1) ?? {});
    return {
      kind: 'stream',
      contentType: 'application/x-ndjson',
      frames: frames.map((frame) => `${JSON.stringify(frame)}\n`),
    };
  },
  error: (_context, error) => json(error.status, { error: error.message ?? 'bad request' }),
};
