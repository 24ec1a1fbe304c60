/** resolveModel keeps what it inferred: a later call answers the same, whatever a caller did. */
import { describe, expect, it } from 'vitest';
import { resolveModel } from './catalog.ts';

describe('resolveModel', () => {
  it('answers the same on every call, and a changed result does not change the next', () => {
    const first = resolveModel('groq/llama-3.3-70b');
    expect(first).toEqual({
      provider: 'groq',
      modelId: 'groq/llama-3.3-70b',
      nativeId: 'llama-3.3-70b',
    });
    first!.nativeId = 'changed';
    expect(resolveModel('groq/llama-3.3-70b')).toEqual({
      provider: 'groq',
      modelId: 'groq/llama-3.3-70b',
      nativeId: 'llama-3.3-70b',
    });
  });

  it('matches prefixes in any case and trims the id', () => {
    expect(resolveModel('  Claude-Sonnet-4-5 ')).toEqual({
      provider: 'anthropic',
      modelId: 'Claude-Sonnet-4-5',
      nativeId: 'Claude-Sonnet-4-5',
    });
    expect(resolveModel('unknown-model')).toBeUndefined();
    expect(resolveModel('unknown-model')).toBeUndefined();
  });

  it('still resolves after many distinct ids', () => {
    for (let i = 0; i < 600; i += 1) resolveModel(`ollama/model-${i}`);
    expect(resolveModel('ollama/model-3')).toEqual({
      provider: 'ollama',
      modelId: 'ollama/model-3',
      nativeId: 'model-3',
    });
  });
});
