import { cleanText } from '../../approvals/ports.ts';
import type { Tool } from '../../tools/ports.ts';

export const FIND_TOOL = 'find_tool';
/** Longest accepted `find_tool` query, in characters. */
export const MAX_FIND_QUERY_CHARS = 500;
/** Tools one `find_tool` call names at most. */
export const FIND_TOOL_LIMIT = 10;
/** Characters of each found tool's description shown. */
const SHORT_DESCRIPTION_CHARS = 120;

/**
 * `find_tool`: the way to the whole catalogue when a turn is offered only the relevant tools.
 * It names the installed tools matching the words (name and a short description) and offers
 * them to the model from its next step on (`ToolContext.offerTools`).
 */
export function findToolTool(search: (query: string, limit: number) => Promise<Tool[]>): Tool {
  return {
    name: FIND_TOOL,
    description: 'Find installed tools not offered yet; callable from the next step.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
    },
    source: 'builtin',
    execute: async (context, args) => {
      const query = typeof args.query === 'string' ? args.query.trim() : '';
      if (query === '') throw new Error('query is required.');
      if (query.length > MAX_FIND_QUERY_CHARS)
        throw new Error(`query is too long (limit ${MAX_FIND_QUERY_CHARS} characters).`);
      const found = await search(query, FIND_TOOL_LIMIT);
      if (found.length === 0) return `No installed tool matches "${cleanText(query, 80)}".`;
      context.offerTools?.(found.map((tool) => tool.name));
      return found
        .map((tool) => `${tool.name}: ${cleanText(tool.description, SHORT_DESCRIPTION_CHARS)}`)
        .join('\n');
    },
  };
}
