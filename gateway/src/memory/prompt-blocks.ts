import { isUntrusted, leastTrusted, HEARTH_ORIGIN, type MemoryOrigin } from './origin.ts';

/** One memory chosen for a prompt. */
export interface RetrievedMemory {
  content: string;
  contentHash: string;
  source: 'short-term' | 'semantic' | 'long-term';
  score: number;
  /** Epoch seconds, when known. */
  createdAt?: number;
  /** Where the remembered text came from; an untrusted memory taints the turn recalling it. */
  origin: MemoryOrigin;
}

/** `untrusted: browser example.com, mcp files` — the mark an untrusted memory carries. */
function untrustedMark(origin: MemoryOrigin): string {
  const names = origin.sources.map((s) => `${s.kind} ${s.name}`.replace(/[\s\]]+/g, ' ').trim());
  return names.length > 0 ? `untrusted: ${names.join(', ')}` : 'untrusted';
}

/**
 * Serialises retrieved memories into the block prepended to the system prompt. Empty when
 * nothing was retrieved, so the prompt is unchanged. A memory made from untrusted content says
 * so, with its sources, so it is read as data and not as the owner's instructions.
 */
export function memoryPromptBlock(memories: readonly RetrievedMemory[]): string {
  if (memories.length === 0) return '';
  const lines = memories.map((memory) => {
    const when = memory.createdAt
      ? `, ${new Date(memory.createdAt * 1000).toISOString().slice(0, 10)}`
      : '';
    const mark = isUntrusted(memory.origin) ? `, ${untrustedMark(memory.origin)}` : '';
    return `- [${memory.source}${when}${mark}] ${memory.content.replace(/\s+/g, ' ').trim()}`;
  });
  return [
    '<memory>',
    'Things you remember about this user and conversation (most relevant first):',
    ...lines,
    '</memory>',
  ].join('\n');
}

/** The `memory_search` tool's answer: one line per memory, untrusted ones marked. */
export function memorySearchText(memories: readonly RetrievedMemory[]): string {
  if (memories.length === 0) return 'Nothing found in memory.';
  return memories
    .map((m) =>
      isUntrusted(m.origin) ? `- [${untrustedMark(m.origin)}] ${m.content}` : `- ${m.content}`,
    )
    .join('\n');
}

/**
 * What recalling these memories makes of the turn: untrusted (with a `memory` source, and the
 * recalled rows' own sources) when any of them is untrusted, else Hearth's own context.
 */
export function recallOrigin(memories: readonly RetrievedMemory[]): MemoryOrigin {
  const untrusted = memories.filter((m) => isUntrusted(m.origin));
  if (untrusted.length === 0) return leastTrusted([], HEARTH_ORIGIN);
  return leastTrusted(
    untrusted.map((m) => ({
      trust: 'untrusted' as const,
      sources: [
        { kind: 'memory' as const, name: `${m.source} ${m.contentHash.slice(0, 12)}` },
        ...m.origin.sources,
      ],
    })),
  );
}
