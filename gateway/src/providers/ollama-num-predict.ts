import type { LanguageModelMiddleware } from 'ai';

/**
 * Ollama caps a reply with `options.num_predict`; ollama-ai-provider-v2 sends the call's
 * `maxOutputTokens` as a top-level `max_output_tokens`, which Ollama's /api/chat ignores. This
 * middleware copies the limit where Ollama reads it (an explicit providerOptions value wins).
 */
export const ollamaNumPredict: LanguageModelMiddleware = {
  specificationVersion: 'v4',
  transformParams: ({ params }) => {
    if (params.maxOutputTokens === undefined) return Promise.resolve(params);
    const ollama = params.providerOptions?.ollama ?? {};
    const options =
      typeof ollama.options === 'object' && ollama.options !== null ? ollama.options : {};
    return Promise.resolve({
      ...params,
      providerOptions: {
        ...params.providerOptions,
        ollama: { ...ollama, options: { num_predict: params.maxOutputTokens, ...options } },
      },
    });
  },
};
