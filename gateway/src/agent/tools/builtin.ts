import { memorySearchText, type MemoryService } from '../../memory/ports.ts';
import type { Tool } from '../../tools/ports.ts';
import { untrustedMemorySources } from '../provenance.ts';

export { AGENT_TOOLS } from './builtin-names.ts';

/** `current_time`: the current date and time, optionally in an IANA time zone. */
export function currentTimeTool(now: () => Date): Tool {
  return {
    name: 'current_time',
    description: 'Date and time now, in an IANA time zone if given.',
    parameters: {
      type: 'object',
      properties: { timezone: { type: 'string', description: 'e.g. Europe/Paris' } },
    },
    source: 'builtin',
    execute: (_context, args) => {
      const timeZone =
        typeof args.timezone === 'string' && args.timezone !== '' ? args.timezone : undefined;
      const date = now();
      try {
        const local = date.toLocaleString('en-GB', {
          timeZone,
          dateStyle: 'full',
          timeStyle: 'long',
        });
        return Promise.resolve(`${local} (ISO ${date.toISOString()})`);
      } catch {
        return Promise.resolve(
          `Unknown time zone '${String(timeZone)}'. UTC now: ${date.toISOString()}`,
        );
      }
    },
  };
}

/** `memory_search`: what the agent remembers about a topic, for this session. */
export function memorySearchTool(memory: MemoryService): Tool {
  return {
    name: 'memory_search',
    description: 'Search your memories of the user and earlier conversations.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
    },
    source: 'builtin',
    execute: async (context, args) => {
      const query = typeof args.query === 'string' ? args.query : '';
      if (query.trim() === '') return 'Error: query is required.';
      const found = await memory.retrieve({ sessionId: context.sessionId, query, topK: 5 });
      for (const source of untrustedMemorySources(found)) context.noteUntrusted?.(source);
      return memorySearchText(found);
    },
  };
}
