/**
 * Gemini's thinking control differs per model generation, so the ladder is mapped per model id:
 * - Gemini 1.x and 2.0 cannot think: nothing is sent.
 * - Gemini 2.5 takes `thinkingBudget` (tokens). Flash and Flash-Lite turn thinking off with 0;
 *   2.5 Pro cannot turn it off and rejects 0 — its minimum, 128, is sent at `off`.
 * - Gemini 3 and later take `thinkingLevel`. None can turn thinking off: `off` sends the lowest
 *   level the model accepts (`minimal` on the Flash line before 3.7, `low` on Pro). A level the
 *   model lacks is raised to the next one it has (3 Pro has only low and high).
 * The model families follow @ai-sdk/google's own catalog (google-model-catalog.ts).
 */
import type { ThinkingLevel } from './thinking-levels.ts';

export const GEMINI_LEVELS = ['minimal', 'low', 'medium', 'high'] as const;
export type GeminiLevel = (typeof GEMINI_LEVELS)[number];

export type GeminiThinkingControl =
  | { kind: 'none' }
  /** `offBudget` undefined: thinking cannot be turned off and no minimum is documented. */
  | { kind: 'budget'; offBudget: number | undefined }
  | { kind: 'level'; levels: readonly GeminiLevel[] };

/** Budgets in tokens for Gemini 2.5 (within every 2.5 model's range, 128/512 to 24576). */
export const GEMINI_BUDGET: Record<Exclude<ThinkingLevel, 'off'>, number> = {
  low: 1_024,
  medium: 4_096,
  high: 8_192,
  xhigh: 16_384,
  max: 24_576,
};

/** The level asked for before it is fitted to what the model accepts. */
const WANTED_LEVEL: Record<ThinkingLevel, GeminiLevel> = {
  off: 'minimal',
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'high',
  max: 'high',
};

/** The model name without a `models/` or publisher path, lower-cased. */
function nameOf(modelId: string): string {
  return (/(?:^|[/.])(gemini-[^/]*)$/i.exec(modelId)?.[1] ?? modelId).toLowerCase();
}

function levelsOf(name: string): GeminiLevel[] {
  // Pro models and the `-latest` aliases of Pro and new Flash start at `low`.
  const pro = /^gemini-(\d+)(?:\.(\d+))?-pro(?:$|-)/.exec(name);
  if (pro) {
    // Gemini 3 Pro (3.0) offers only low and high; 3.1 Pro and later add medium.
    const onlyLowHigh = pro[1] === '3' && (pro[2] === undefined || pro[2] === '0');
    return onlyLowHigh ? ['low', 'high'] : ['low', 'medium', 'high'];
  }
  if (name === 'gemini-pro-latest' || name === 'gemini-flash-latest')
    return ['low', 'medium', 'high'];
  const flash = /^gemini-(\d+)\.(\d+)-flash(?:$|-(?!lite(?:-|$)))/.exec(name);
  if (flash) {
    const major = Number(flash[1]);
    const minor = Number(flash[2]);
    if (major > 3 || (major === 3 && minor >= 7)) return ['low', 'medium', 'high'];
  }
  return ['minimal', 'low', 'medium', 'high'];
}

/** How a Gemini model takes thinking, from its id. */
export function geminiThinkingControl(modelId: string): GeminiThinkingControl {
  const name = nameOf(modelId);
  if (/^gemini-(1|2\.0)(?:[.-]|$)/.test(name)) return { kind: 'none' };
  if (/^gemini-2\.5(?:[.-]|$)/.test(name))
    return { kind: 'budget', offBudget: name.includes('-pro') ? 128 : 0 };
  // The SDK's catalog keeps Gemini 3 Pro Image on a budget; it always thinks.
  if (name.startsWith('gemini-3-pro-image')) return { kind: 'budget', offBudget: undefined };
  return { kind: 'level', levels: levelsOf(name) };
}

/** The level fitted to the model: the wanted one, else the next higher, else the highest. */
function fitLevel(wanted: GeminiLevel, levels: readonly GeminiLevel[]): GeminiLevel {
  const from = GEMINI_LEVELS.indexOf(wanted);
  const higher = GEMINI_LEVELS.slice(from).find((level) => levels.includes(level));
  return higher ?? levels.at(-1) ?? wanted;
}

/** `thinkingConfig` for one model and level; undefined sends no thinking field at all. */
export function geminiThinkingConfig(
  modelId: string,
  level: ThinkingLevel,
): { thinkingBudget: number } | { thinkingLevel: GeminiLevel } | undefined {
  const control = geminiThinkingControl(modelId);
  switch (control.kind) {
    case 'none':
      return undefined;
    case 'budget':
      if (level !== 'off') return { thinkingBudget: GEMINI_BUDGET[level] };
      return control.offBudget === undefined ? undefined : { thinkingBudget: control.offBudget };
    case 'level':
      return { thinkingLevel: fitLevel(WANTED_LEVEL[level], control.levels) };
  }
}
