/** One memory chosen for a prompt. */
export interface RetrievedMemory {
  content: string;
  contentHash: string;
  source: 'short-term' | 'semantic' | 'long-term';
  score: number;
  /** Epoch seconds, when known. */
  createdAt?: number;
}

/**
 * Serialises retrieved memories into the block prepended to the system prompt. Empty when
 * nothing was retrieved, so the prompt is unchanged.
 */
export function memoryPromptBlock(memories: readonly RetrievedMemory[]): string {
  if (memories.length === 0) return '';
  const lines = memories.map((memory) => {
    const when = memory.createdAt
      ? `, ${new Date(memory.createdAt * 1000).toISOString().slice(0, 10)}`
      : '';
    return `- [${memory.source}${when}] ${memory.content.replace(/\s+/g, ' ').trim()}`;
  });
  return [
    '<memory>',
    'Things you remember about this user and conversation (most relevant first):',
    ...lines,
    '</memory>',
  ].join('\n');
}
