/**
 * The reasoning-effort ladder and how each provider family receives it. The mapping is a
 * documented table (README "Thinking ladder"); `thinkingOptions` turns a level into the AI SDK
 * `providerOptions` of one provider, applied identically on the generate and stream paths.
 */
import { geminiThinkingConfig } from './gemini-thinking.ts';
import type { ProviderOptions, ThinkingLevel } from './thinking-levels.ts';

export {
  THINKING_LEVELS,
  isThinkingLevel,
  type ProviderOptions,
  type ThinkingLevel,
} from './thinking-levels.ts';

export type ThinkingStyle =
  /** An extended-thinking token budget that scales with the level (Anthropic). */
  | 'anthropic-budget'
  /** Gemini `thinkingConfig`: a budget on 2.5, a level on 3+, per model (gemini-thinking.ts). */
  | 'gemini-thinking'
  /** A `reasoning_effort` field (OpenAI reasoning models, Azure, xAI, Groq). */
  | 'reasoning-effort'
  /** OpenRouter's `reasoning: { effort }`. */
  | 'openrouter-effort'
  /** The local runtime's boolean `think` (off → false, anything else → true). */
  | 'ollama-think'
  /** The provider has no thinking control (its only lever is which model is configured). */
  | 'none';

/** Extended-thinking budgets in tokens. */
export const ANTHROPIC_BUDGET: Record<Exclude<ThinkingLevel, 'off'>, number> = {
  low: 2_048,
  medium: 8_192,
  high: 16_384,
  xhigh: 32_768,
  max: 63_999,
};
/** `reasoning_effort` values; providers without xhigh/max get their highest level. */
export const REASONING_EFFORT: Record<Exclude<ThinkingLevel, 'off'>, 'low' | 'medium' | 'high'> = {
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'high',
  max: 'high',
};

/**
 * `providerOptions` for one request. `optionsKey` is the provider's key in the AI SDK's
 * providerOptions (e.g. 'anthropic', 'openai'); `reasoningModel` says whether the model takes a
 * reasoning effort at all (OpenAI's o-series and gpt-5 do, gpt-4o rejects it); `nativeModelId`
 * picks the per-model control where one family differs by model (Gemini).
 */
export function thinkingOptions(
  style: ThinkingStyle,
  optionsKey: string,
  level: ThinkingLevel,
  reasoningModel: boolean,
  nativeModelId: string,
): ProviderOptions {
  switch (style) {
    case 'anthropic-budget':
      return level === 'off'
        ? { [optionsKey]: { thinking: { type: 'disabled' } } }
        : {
            [optionsKey]: { thinking: { type: 'enabled', budgetTokens: ANTHROPIC_BUDGET[level] } },
          };
    case 'gemini-thinking': {
      const thinkingConfig = geminiThinkingConfig(nativeModelId, level);
      return thinkingConfig ? { [optionsKey]: { thinkingConfig } } : {};
    }
    case 'reasoning-effort':
      return level === 'off' || !reasoningModel
        ? {}
        : { [optionsKey]: { reasoningEffort: REASONING_EFFORT[level] } };
    case 'openrouter-effort':
      return level === 'off'
        ? {}
        : { [optionsKey]: { reasoning: { effort: REASONING_EFFORT[level] } } };
    case 'ollama-think':
      return { [optionsKey]: { think: level !== 'off' } };
    case 'none':
      return {};
  }
}
