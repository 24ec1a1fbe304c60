/**
 * Reads back what an adapter sent, per wire format: the model named, the tools declared, the
 * assistant tool calls and tool results replayed in the history, and the thinking fields.
 * Tests assert on these instead of on each vendor's JSON layout.
 */
import { bedrockModelOf } from './bedrock-converse.ts';
import { geminiModelOf } from './gemini.ts';
import { arrayOf, bodyOf, isObject, type JsonObject, type RecordedRequest } from './wire.ts';

export type WireName =
  | 'openai-chat'
  | 'openai-responses'
  | 'anthropic-messages'
  | 'gemini'
  | 'cohere-chat'
  | 'ollama'
  | 'bedrock-converse';

export interface SentToolCall {
  id: string | undefined;
  name: string;
  arguments: unknown;
}

export interface SentToolResult {
  /** The call id the result answers; Gemini matches by name (and an optional id). */
  callId: string | undefined;
  name: string | undefined;
  /** The result as text (structured outputs are JSON-encoded). */
  output: string;
}

export interface WireInspector {
  model: (request: RecordedRequest) => string | undefined;
  /** The system instructions, wherever this wire carries them. */
  system: (request: RecordedRequest) => string;
  /** The reply length limit, in the field the provider honours. */
  maxTokens: (request: RecordedRequest) => unknown;
  toolNames: (request: RecordedRequest) => string[];
  toolCalls: (request: RecordedRequest) => SentToolCall[];
  toolResults: (request: RecordedRequest) => SentToolResult[];
  /** The request fields that carry reasoning effort / thinking on this wire ({} when none). */
  thinking: (request: RecordedRequest) => JsonObject;
}

const text = (value: unknown): string =>
  typeof value === 'string' ? value : JSON.stringify(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const objects = (value: unknown): JsonObject[] => arrayOf(value).filter(isObject);
const field = (value: unknown, key: string): unknown => (isObject(value) ? value[key] : undefined);

function parseArguments(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** Text of a content value: a string, or an array of `{text}` parts. */
function contentText(value: unknown): string {
  if (typeof value === 'string') return value;
  return objects(value)
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .join('');
}

/** Messages whose role is system (or OpenAI's developer). */
function systemMessages(messages: unknown): string {
  return objects(messages)
    .filter((message) => message.role === 'system' || message.role === 'developer')
    .map((message) => contentText(message.content))
    .join('\n');
}

function pick(source: unknown, keys: readonly string[]): JsonObject {
  const out: JsonObject = {};
  if (!isObject(source)) return out;
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}

/** Message history of the chat-style formats (OpenAI chat, Cohere, Ollama). */
function chatHistory(toolResultName: string): Omit<WireInspector, 'thinking' | 'maxTokens'> {
  return {
    model: (request) => str(bodyOf(request).model),
    system: (request) => systemMessages(bodyOf(request).messages),
    toolNames: (request) =>
      objects(bodyOf(request).tools).map((tool) => String(field(tool.function, 'name'))),
    toolCalls: (request) =>
      objects(bodyOf(request).messages)
        .filter((message) => message.role === 'assistant')
        .flatMap((message) => objects(message.tool_calls))
        .map((call) => ({
          id: str(call.id),
          name: String(field(call.function, 'name')),
          arguments: parseArguments(field(call.function, 'arguments')),
        })),
    toolResults: (request) =>
      objects(bodyOf(request).messages)
        .filter((message) => message.role === 'tool')
        .map((message) => ({
          callId: str(message.tool_call_id),
          name: str(message[toolResultName]),
          output: Array.isArray(message.content)
            ? objects(message.content)
                .map((part) => text(part.text ?? field(part.document, 'data') ?? part))
                .join('')
            : text(message.content),
        })),
  };
}

const OPENAI_THINKING = [
  'reasoning_effort',
  'reasoning',
  'thinking',
  'enable_thinking',
  'reasoning_format',
  'include_reasoning',
];

export const INSPECTORS: Record<WireName, WireInspector> = {
  'openai-chat': {
    ...chatHistory('name'),
    maxTokens: (request) => bodyOf(request).max_completion_tokens ?? bodyOf(request).max_tokens,
    thinking: (request) => pick(bodyOf(request), OPENAI_THINKING),
  },
  'cohere-chat': {
    ...chatHistory('name'),
    maxTokens: (request) => bodyOf(request).max_tokens,
    thinking: (request) => pick(bodyOf(request), ['thinking']),
  },
  ollama: {
    ...chatHistory('tool_name'),
    // Ollama reads options.num_predict and ignores unknown top-level fields.
    maxTokens: (request) => field(bodyOf(request).options, 'num_predict'),
    thinking: (request) => pick(bodyOf(request), ['think']),
  },
  'openai-responses': {
    model: (request) => str(bodyOf(request).model),
    system: (request) =>
      [str(bodyOf(request).instructions) ?? '', systemMessages(bodyOf(request).input)].join(''),
    maxTokens: (request) => bodyOf(request).max_output_tokens,
    toolNames: (request) => objects(bodyOf(request).tools).map((tool) => String(tool.name)),
    toolCalls: (request) =>
      objects(bodyOf(request).input)
        .filter((item) => item.type === 'function_call')
        .map((item) => ({
          id: str(item.call_id),
          name: String(item.name),
          arguments: parseArguments(item.arguments),
        })),
    toolResults: (request) =>
      objects(bodyOf(request).input)
        .filter((item) => item.type === 'function_call_output')
        .map((item) => ({ callId: str(item.call_id), name: undefined, output: text(item.output) })),
    thinking: (request) => pick(bodyOf(request), ['reasoning']),
  },
  'anthropic-messages': {
    model: (request) => str(bodyOf(request).model),
    system: (request) => contentText(bodyOf(request).system),
    maxTokens: (request) => bodyOf(request).max_tokens,
    toolNames: (request) => objects(bodyOf(request).tools).map((tool) => String(tool.name)),
    toolCalls: (request) =>
      objects(bodyOf(request).messages)
        .flatMap((message) => objects(message.content))
        .filter((part) => part.type === 'tool_use')
        .map((part) => ({ id: str(part.id), name: String(part.name), arguments: part.input })),
    toolResults: (request) =>
      objects(bodyOf(request).messages)
        .flatMap((message) => objects(message.content))
        .filter((part) => part.type === 'tool_result')
        .map((part) => ({
          callId: str(part.tool_use_id),
          name: undefined,
          output: Array.isArray(part.content)
            ? objects(part.content)
                .map((c) => text(c.text))
                .join('')
            : text(part.content),
        })),
    thinking: (request) => pick(bodyOf(request), ['thinking']),
  },
  gemini: {
    model: geminiModelOf,
    system: (request) => contentText(field(bodyOf(request).systemInstruction, 'parts')),
    maxTokens: (request) => field(bodyOf(request).generationConfig, 'maxOutputTokens'),
    toolNames: (request) =>
      objects(bodyOf(request).tools)
        .flatMap((tool) => objects(tool.functionDeclarations))
        .map((fn) => String(fn.name)),
    toolCalls: (request) =>
      objects(bodyOf(request).contents)
        .flatMap((content) => objects(content.parts))
        .map((part) => part.functionCall)
        .filter(isObject)
        .map((call) => ({ id: str(call.id), name: String(call.name), arguments: call.args })),
    toolResults: (request) =>
      objects(bodyOf(request).contents)
        .flatMap((content) => objects(content.parts))
        .map((part) => part.functionResponse)
        .filter(isObject)
        .map((response) => ({
          callId: str(response.id),
          name: str(response.name),
          output: text(response.response),
        })),
    thinking: (request) => pick(bodyOf(request).generationConfig, ['thinkingConfig']),
  },
  'bedrock-converse': {
    model: bedrockModelOf,
    system: (request) => contentText(bodyOf(request).system),
    maxTokens: (request) => field(bodyOf(request).inferenceConfig, 'maxTokens'),
    toolNames: (request) =>
      objects(field(bodyOf(request).toolConfig, 'tools')).map((tool) =>
        String(field(tool.toolSpec, 'name')),
      ),
    toolCalls: (request) =>
      objects(bodyOf(request).messages)
        .flatMap((message) => objects(message.content))
        .map((part) => part.toolUse)
        .filter(isObject)
        .map((use) => ({ id: str(use.toolUseId), name: String(use.name), arguments: use.input })),
    toolResults: (request) =>
      objects(bodyOf(request).messages)
        .flatMap((message) => objects(message.content))
        .map((part) => part.toolResult)
        .filter(isObject)
        .map((result) => ({
          callId: str(result.toolUseId),
          name: undefined,
          output: objects(result.content)
            .map((c) => text(c.text ?? c.json))
            .join(''),
        })),
    thinking: (request) =>
      pick(bodyOf(request).additionalModelRequestFields, [
        'thinking',
        'reasoning_config',
        'reasoningConfig',
        'reasoning_effort',
      ]),
  },
};
