/**
 * Which of the installed tools (beyond the core) a turn is offered: the ones relevant to its
 * message and the recent turns, at most `maxOffered`. Relevance is a BM25 keyword score over
 * each tool's name, description and parameter names, joined — when the local embedder works —
 * by the cosine similarity of the tool's text to the message's. Tools are embedded once per
 * tool object, in the background: until a tool's vector is there it is ranked by keywords.
 */
import type { Embedder } from '../../memory/ports.ts';
import type { Tool } from '../../tools/ports.ts';
import { createKeywordIndexCache, queryWeights, toolText } from './keyword-index.ts';

/** How much the recent turns' words count against the message's own. */
const RECENT_WEIGHT = 0.5;
/** A keyword match below this share of the best match is noise (a word every tool has). */
const RELATIVE_FLOOR = 0.25;
/** Cosine similarity from which the embedder alone makes a tool relevant. */
const MIN_SIMILARITY = 0.5;
/** Tools embedded per background batch (one batch per turn at most, so a turn never waits). */
const EMBED_BATCH = 64;

export interface SelectRequest {
  /** The tools to choose from (the core left out). */
  tools: readonly Tool[];
  message: string;
  /** The owner's recent messages in this conversation, oldest first. */
  recent: readonly string[];
  maxOffered: number;
}

export interface ToolSelector {
  /** The relevant tools, most relevant first; none for a message no tool matches. */
  select(request: SelectRequest): Promise<Tool[]>;
  /** `embedder` once the local embedder has worked (loaded), else `keywords`. */
  ranking(): 'embedder' | 'keywords';
}

export interface ToolSelectorDeps {
  /** The local embedder (absent, or unavailable: keywords only). */
  embedder?: Pick<Embedder, 'state' | 'embed'>;
}

const dot = (a: Float32Array, b: Float32Array): number => {
  let sum = 0;
  for (let i = 0; i < a.length && i < b.length; i++) sum += a[i]! * b[i]!;
  return sum;
};

export function createToolSelector(deps: ToolSelectorDeps): ToolSelector {
  const keywordIndex = createKeywordIndexCache<Tool>();
  const vectors = new WeakMap<Tool, Float32Array>();
  let embedding = false;
  const embedderUsable = (): boolean =>
    deps.embedder !== undefined && deps.embedder.state !== 'unavailable';

  /** Embeds tools that have no vector yet, one batch at a time, without waiting for it. */
  function embedMissing(tools: readonly Tool[]): void {
    if (embedding || !deps.embedder) return;
    const missing = tools.filter((tool) => !vectors.has(tool)).slice(0, EMBED_BATCH);
    if (missing.length === 0) return;
    embedding = true;
    deps.embedder
      .embed(missing.map(toolText))
      .then((embedded) => embedded.forEach((vector, i) => vectors.set(missing[i]!, vector)))
      .catch(() => undefined)
      .finally(() => {
        embedding = false;
      });
  }

  async function similarities(request: SelectRequest): Promise<Map<Tool, number> | undefined> {
    if (!embedderUsable() || !deps.embedder) return undefined;
    embedMissing(request.tools);
    const text = [...request.recent, request.message].join('\n');
    const query = await deps.embedder.embed([text]).then(
      (vectors) => vectors[0],
      () => undefined,
    );
    if (query === undefined) return undefined;
    const out = new Map<Tool, number>();
    for (const tool of request.tools) {
      const vector = vectors.get(tool);
      if (vector !== undefined) out.set(tool, dot(query, vector));
    }
    return out;
  }

  return {
    async select(request) {
      if (request.maxOffered <= 0 || request.tools.length === 0) return [];
      const query = queryWeights(request.message, request.recent, RECENT_WEIGHT);
      const keyword = keywordIndex(request.tools).score(query);
      const best = keyword[0]?.score ?? 0;
      const scores = new Map<Tool, number>();
      for (const { tool, score } of keyword)
        if (score >= RELATIVE_FLOOR * best) scores.set(tool, score / best);
      const similar = await similarities(request);
      for (const [tool, similarity] of similar ?? []) {
        const keywordScore = scores.get(tool);
        if (keywordScore !== undefined) scores.set(tool, keywordScore + Math.max(similarity, 0));
        else if (similarity >= MIN_SIMILARITY) scores.set(tool, similarity);
      }
      return [...scores]
        .sort((a, b) => b[1] - a[1])
        .slice(0, request.maxOffered)
        .map(([tool]) => tool);
    },
    ranking: () => (deps.embedder?.state === 'available' ? 'embedder' : 'keywords'),
  };
}
