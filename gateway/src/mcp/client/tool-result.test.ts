import { describe, expect, it } from 'vitest';
import { MAX_RESULT_CHARS, resultText } from './tool-result.ts';

describe('an MCP tool result as the text the model gets', () => {
  it('joins text blocks and names the others', () => {
    expect(
      resultText({
        content: [
          { type: 'text', text: 'first' },
          { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'file:///a', text: 'inline' } },
          { type: 'resource_link', uri: 'file:///b', name: 'b' },
        ],
      }),
    ).toBe('first\n[image image/png, 8 base64 characters]\ninline\n[resource file:///b]');
  });

  it('uses structured content when there is no block', () => {
    expect(resultText({ content: [], structuredContent: { answer: 42 } })).toBe('{"answer":42}');
  });

  it('cuts a huge result', () => {
    const text = resultText({
      content: [{ type: 'text', text: 'x'.repeat(MAX_RESULT_CHARS + 10) }],
    });
    expect(text.endsWith(`[cut at ${MAX_RESULT_CHARS} characters]`)).toBe(true);
  });
});
