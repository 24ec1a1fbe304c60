/** Hearth's own conversation types: the rest of the gateway never sees AI SDK types. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export type ChatMessage =
  | { role: 'user'; content: string }
  | {
      role: 'assistant';
      content: string;
      toolCalls?: ToolCall[];
      /**
       * The provider-native form of this assistant turn, replayed as is on the next step (it
       * carries what Hearth does not model, such as Anthropic's signed thinking blocks).
       */
      replay?: unknown;
    }
  | { role: 'tool'; toolCallId: string; toolName: string; content: string; isError?: boolean };

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

export type FinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

export interface Generation {
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  /** Web pages the provider searched or cited (native web search, Perplexity). */
  sources?: { url: string; title?: string }[];
  usage: Usage;
  /**
   * Searches the provider ran itself (native web search), billed per search by most
   * providers; absent when none ran.
   */
  webSearches?: number;
  finishReason: FinishReason;
  /** The step's assistant message(s) in the SDK's own form, for `ChatMessage.replay`. */
  replay?: unknown;
}

export type GenerationEvent =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'finish'; generation: Generation };
