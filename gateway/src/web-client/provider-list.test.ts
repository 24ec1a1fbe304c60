import { describe, expect, it } from 'vitest';
import { PROVIDERS } from '../providers/catalog.ts';
import { OLLAMA_DEFAULT_URL, PROVIDER_CHOICES } from '../../../web/src/providers.ts';
import { testConfig } from '../testing/gateway/test-gateway.ts';

describe('the web client’s provider list', () => {
  it('is the gateway’s catalogue: all 19 providers, their settings fields and default models', () => {
    expect(PROVIDER_CHOICES.map((p) => [p.name, p.fields, p.defaultModel])).toEqual(
      PROVIDERS.map((p) => [p.name, p.settingsFields, p.defaultModel]),
    );
    expect(PROVIDER_CHOICES).toHaveLength(19);
  });

  it('pre-fills the Ollama URL with the configuration’s default', () => {
    expect(OLLAMA_DEFAULT_URL).toBe(testConfig().models.ollama_base_url);
  });
});
