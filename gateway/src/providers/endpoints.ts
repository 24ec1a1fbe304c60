/** API base URLs derived from the endpoints a user configures under `[models]`. */

/**
 * Azure OpenAI's `…/openai` prefix for @ai-sdk/azure, which then calls `…/openai/v1/…`. An
 * endpoint pasted with `/openai` or `/openai/v1` already is kept as it is.
 */
export function azureBaseURL(endpoint: string): string {
  const trimmed = endpoint.replace(/\/+$/, '');
  return /\/openai(\/v1)?$/i.test(trimmed) ? trimmed : `${trimmed}/openai`;
}

/** Ollama's `…/api` prefix; a base URL given with `/api` already is not doubled. */
export function ollamaApiURL(baseURL: string): string {
  return `${baseURL.replace(/\/+$/, '').replace(/\/api$/, '')}/api`;
}
