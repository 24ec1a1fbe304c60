/**
 * How a provider searches the web natively, the `webSearch` field of its catalog entry
 * (web-search.ts applies it to a request).
 */
import type { ToolSet } from 'ai';
import type { ProviderOptions } from './thinking-levels.ts';

export type WebSearchSpec =
  /** A provider-executed tool sent with the request while web search is enabled. */
  | {
      kind: 'tool';
      /** Does this model have the tool? */
      supports: (nativeModelId: string) => boolean;
      /**
       * False where the tool cannot be sent together with function tools (Gemini 2.x: the SDK
       * would drop the functions); it is then sent only on requests without function tools.
       */
      withFunctions: (nativeModelId: string) => boolean;
      /** The tool under the name the provider expects (results are mapped back by that name). */
      tool: () => Promise<ToolSet>;
      /** `providerOptions` the search needs on top of thinking (merged per provider key). */
      providerOptions?: ProviderOptions;
      /** Shown in GET /models: which models have it and any limit. */
      note: string;
    }
  /** The provider searches the web on every request (Perplexity's Sonar): nothing to add. */
  | { kind: 'always'; note: string };
