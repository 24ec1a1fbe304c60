/**
 * A BM25 index over tools: each tool a document of its name, description and parameter names
 * (and their descriptions). Rebuilt only when the set of tool objects changes; a tool's words
 * are worked out once per tool object.
 */
import type { ToolDescriptor } from '../../tools/ports.ts';
import { tokensOf } from './tokens.ts';

/** BM25's term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;

/** The words a tool is found by: its name counts twice (it is what the tool is called). */
export function toolText(tool: ToolDescriptor): string {
  const properties = (tool.parameters.properties ?? {}) as Record<string, unknown>;
  const parameters = Object.entries(properties).map(([name, schema]) => {
    const description =
      schema !== null && typeof schema === 'object' && 'description' in schema
        ? String(schema.description)
        : '';
    return `${name} ${description}`;
  });
  return [tool.name, tool.name, tool.description, ...parameters].join(' ');
}

interface Document<T> {
  tool: T;
  length: number;
  frequencies: Map<string, number>;
}

export interface KeywordIndex<T> {
  /** Each tool with a positive score for the weighted query words, best first. */
  score(query: ReadonlyMap<string, number>): { tool: T; score: number }[];
}

/** Query words with weights: the message's count fully, the recent turns' at `recentWeight`. */
export function queryWeights(
  message: string,
  recent: readonly string[],
  recentWeight: number,
): Map<string, number> {
  const weights = new Map<string, number>();
  for (const token of tokensOf(message)) weights.set(token, 1);
  for (const token of tokensOf(recent.join(' ')))
    if (!weights.has(token)) weights.set(token, recentWeight);
  return weights;
}

export function createKeywordIndexCache<T extends ToolDescriptor>(): (
  tools: readonly T[],
) => KeywordIndex<T> {
  const documents = new WeakMap<T, Document<T>>();
  let built: { tools: readonly T[]; index: KeywordIndex<T> } | undefined;

  const documentOf = (tool: T): Document<T> => {
    let document = documents.get(tool);
    if (document === undefined) {
      const tokens = tokensOf(toolText(tool));
      const frequencies = new Map<string, number>();
      for (const token of tokens) frequencies.set(token, (frequencies.get(token) ?? 0) + 1);
      document = { tool, length: tokens.length, frequencies };
      documents.set(tool, document);
    }
    return document;
  };

  const build = (tools: readonly T[]): KeywordIndex<T> => {
    const docs = tools.map(documentOf);
    const averageLength = docs.reduce((sum, doc) => sum + doc.length, 0) / (docs.length || 1);
    const containing = new Map<string, number>();
    for (const doc of docs)
      for (const token of doc.frequencies.keys())
        containing.set(token, (containing.get(token) ?? 0) + 1);
    const idf = (token: string): number => {
      const n = containing.get(token) ?? 0;
      return Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
    };
    return {
      score(query) {
        const scored: { tool: T; score: number }[] = [];
        for (const doc of docs) {
          let score = 0;
          for (const [token, weight] of query) {
            const tf = doc.frequencies.get(token);
            if (tf === undefined) continue;
            const norm = tf + K1 * (1 - B + (B * doc.length) / (averageLength || 1));
            score += weight * idf(token) * ((tf * (K1 + 1)) / norm);
          }
          if (score > 0) scored.push({ tool: doc.tool, score });
        }
        return scored.sort((a, b) => b.score - a.score);
      },
    };
  };

  return (tools) => {
    const same =
      built !== undefined &&
      built.tools.length === tools.length &&
      built.tools.every((tool, i) => tool === tools[i]);
    if (!same) built = { tools: [...tools], index: build(tools) };
    return built!.index;
  };
}
