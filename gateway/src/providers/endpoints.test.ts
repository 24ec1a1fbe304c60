/**
 * The URLs the catalog's adapters call when no base URL override is given: built from the
 * `[models]` endpoint fields exactly as a user types them. No network: fetch only records.
 */
import { describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema.ts';
import { providerSpec, type ModelsConfig, type ProviderName } from './catalog.ts';
import { azureBaseURL, ollamaApiURL } from './endpoints.ts';
import { generate } from './llm-call.ts';

async function firstUrl(
  provider: ProviderName,
  models: Partial<ModelsConfig>,
  nativeId: string,
  apiKey = 'k',
) {
  const urls: string[] = [];
  const fetch: typeof globalThis.fetch = (input) => {
    urls.push(input instanceof Request ? input.url : String(input));
    return Promise.resolve(new Response('{"error":{"message":"recorded"}}', { status: 418 }));
  };
  const spec = providerSpec(provider);
  const model = await spec.create(
    { apiKey, baseURL: undefined, models: { ...configSchema.parse({}).models, ...models }, fetch },
    nativeId,
  );
  await generate({ model, messages: [{ role: 'user', content: 'hi' }], providerOptions: {} }).catch(
    () => undefined,
  );
  return urls[0];
}

describe('provider endpoints from [models]', () => {
  it.each([
    ['https://hearth.openai.azure.com', 'https://hearth.openai.azure.com/openai'],
    ['https://hearth.openai.azure.com/', 'https://hearth.openai.azure.com/openai'],
    ['https://hearth.openai.azure.com/openai', 'https://hearth.openai.azure.com/openai'],
    ['https://hearth.openai.azure.com/openai/v1/', 'https://hearth.openai.azure.com/openai/v1'],
  ])('azure endpoint %s gives base %s', (endpoint, base) => {
    expect(azureBaseURL(endpoint)).toBe(base);
  });

  it.each([
    [
      'https://hearth.openai.azure.com/',
      'https://hearth.openai.azure.com/openai/v1/chat/completions?api-version=v1',
    ],
    [
      'https://hearth.openai.azure.com/openai/v1',
      'https://hearth.openai.azure.com/openai/v1/chat/completions',
    ],
  ])('azure endpoint %s is called at %s', async (endpoint, url) => {
    expect(
      await firstUrl('azure', { azure_endpoint: endpoint, azure_api_key: 'k' }, 'gpt-4o-mini'),
    ).toBe(url);
  });

  it.each([
    ['http://127.0.0.1:11434', 'http://127.0.0.1:11434/api'],
    ['http://127.0.0.1:11434/', 'http://127.0.0.1:11434/api'],
    ['http://gpu-box:11434/api/', 'http://gpu-box:11434/api'],
  ])('ollama base %s gives %s', (base, api) => {
    expect(ollamaApiURL(base)).toBe(api);
  });

  it('calls the local runtime at <ollama_base_url>/api/chat', async () => {
    expect(
      await firstUrl('ollama', { ollama_base_url: 'http://gpu-box:11434/api/' }, 'llama3.2', ''),
    ).toBe('http://gpu-box:11434/api/chat');
  });

  it('calls Bedrock in the configured region with the model id path-encoded', async () => {
    expect(
      await firstUrl(
        'bedrock',
        { bedrock_region: 'eu-west-1' },
        'anthropic.claude-3-5-haiku-20241022-v1:0',
      ),
    ).toBe(
      'https://bedrock-runtime.eu-west-1.amazonaws.com/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/converse',
    );
  });
});
