/** The reasoning-effort ladder (thinking.ts maps a level to each provider family's options). */
export const THINKING_LEVELS = ['off', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
export type ThinkingLevel = (typeof THINKING_LEVELS)[number];

export function isThinkingLevel(value: string): value is ThinkingLevel {
  return (THINKING_LEVELS as readonly string[]).includes(value);
}

/** The AI SDK `providerOptions` of a request, per provider key. */
export type ProviderOptions = Record<string, Record<string, unknown>>;
