import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** Longest tool result handed to the model, in characters. */
export const MAX_RESULT_CHARS = 100_000;

/**
 * An MCP tool result as the text a Hearth tool returns: text blocks as they are, other blocks
 * (images, audio, resources) named by what they are, structured content as JSON when there is
 * no text, cut at MAX_RESULT_CHARS.
 */
export function resultText(result: Pick<CallToolResult, 'content' | 'structuredContent'>): string {
  const parts: string[] = [];
  for (const block of result.content) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'image':
      case 'audio':
        parts.push(`[${block.type} ${block.mimeType}, ${block.data.length} base64 characters]`);
        break;
      case 'resource':
        parts.push(
          'text' in block.resource ? block.resource.text : `[resource ${block.resource.uri}]`,
        );
        break;
      case 'resource_link':
        parts.push(`[resource ${block.uri}]`);
        break;
    }
  }
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent));
  const text = parts.join('\n');
  return text.length > MAX_RESULT_CHARS
    ? `${text.slice(0, MAX_RESULT_CHARS)}\n[cut at ${MAX_RESULT_CHARS} characters]`
    : text;
}
