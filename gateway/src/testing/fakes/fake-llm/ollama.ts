/**
 * Ollama's native API: `POST /api/chat` (JSON, or NDJSON when `stream` is true or absent) with
 * `message.content`, `message.thinking`, `message.tool_calls`, and `GET /api/tags`.
 * https://github.com/ollama/ollama/blob/main/docs/api.md
 */
import {
  fakeId,
  reasoningPieces,
  stopKind,
  textPieces,
  usageOf,
  type ReplyScript,
} from './script.ts';
import {
  arrayOf,
  bodyOf,
  defaultErrorMessage,
  isObject,
  json,
  type JsonObject,
  type WireContext,
  type WireRoute,
} from './wire.ts';
import { pulledModels } from './ollama-pull.ts';

function createdAt(): string {
  return new Date().toISOString();
}

function metrics(script: ReplyScript): JsonObject {
  const usage = usageOf(script);
  return {
    total_duration: 1_200_000_000,
    load_duration: 50_000_000,
    prompt_eval_count: usage.inputTokens,
    prompt_eval_duration: 100_000_000,
    eval_count: usage.outputTokens,
    eval_duration: 1_000_000_000,
  };
}

function toolCalls(script: ReplyScript): JsonObject[] {
  return (script.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? fakeId('call_', 8),
    function: { index, name: call.name, arguments: call.arguments },
  }));
}

/** Ollama reports `stop` even when the model called tools; `length` when num_predict was hit. */
function doneReason(script: ReplyScript): string {
  return stopKind(script) === 'length' ? 'length' : 'stop';
}

function reply(context: WireContext, script: ReplyScript): JsonObject {
  const message: JsonObject = { role: 'assistant', content: script.text ?? '' };
  if (script.reasoning) message.thinking = script.reasoning;
  const calls = toolCalls(script);
  if (calls.length > 0) message.tool_calls = calls;
  return {
    model: bodyOf(context.request).model,
    created_at: createdAt(),
    message,
    done_reason: doneReason(script),
    done: true,
    ...metrics(script),
  };
}

function lines(context: WireContext, script: ReplyScript): string[] {
  const model = bodyOf(context.request).model;
  const line = (message: JsonObject) => ({
    model,
    created_at: createdAt(),
    message: { role: 'assistant', content: '', ...message },
    done: false,
  });
  const out: JsonObject[] = [
    ...reasoningPieces(script).map((thinking) => line({ thinking })),
    ...textPieces(script).map((content) => line({ content })),
  ];
  if (script.streamError !== undefined) {
    // After the 200 headers Ollama can only report a failure as an `error` line.
    return [...out, { error: script.streamError }].map((value) => `${JSON.stringify(value)}\n`);
  }
  const calls = toolCalls(script);
  if (calls.length > 0) out.push(line({ tool_calls: calls }));
  out.push({
    model,
    created_at: createdAt(),
    message: { role: 'assistant', content: '' },
    done: true,
    done_reason: doneReason(script),
    ...metrics(script),
  });
  return out.map((value) => `${JSON.stringify(value)}\n`);
}

/**
 * What Ollama rejects: a tool call's `arguments` must be a JSON object (not the string OpenAI
 * uses), `think` must be a boolean or a level name, and only thinking models may think.
 */
function validate(context: WireContext): string | undefined {
  if (context.request.method !== 'POST') return undefined;
  const body = bodyOf(context.request);
  if (typeof body.model !== 'string' || body.model === '') return 'model is required';
  for (const message of arrayOf(body.messages).filter(isObject)) {
    for (const call of arrayOf(message.tool_calls).filter(isObject)) {
      const fn = isObject(call.function) ? call.function : {};
      if (!isObject(fn.arguments)) {
        return 'json: cannot unmarshal string into Go struct field ToolCallFunction.messages.tool_calls.function.arguments of type api.ToolCallFunctionArguments';
      }
    }
  }
  const think = body.think;
  const level = typeof think === 'string' && ['low', 'medium', 'high'].includes(think);
  if (think !== undefined && typeof think !== 'boolean' && !level) {
    return `invalid think value: ${JSON.stringify(body.think)}`;
  }
  const thinkers = context.options.ollamaThinkingModels;
  if (think !== undefined && think !== false && thinkers && !thinkers.includes(body.model)) {
    return `"${body.model}" does not support thinking`;
  }
  return undefined;
}

const isChat = (path: string) => path.endsWith('/api/chat');
const isTags = (path: string) => path.endsWith('/api/tags');

export const ollama: WireRoute = {
  name: 'ollama',
  matches: (method, path) =>
    (method === 'POST' && isChat(path)) || (method === 'GET' && isTags(path)),
  scripted: (method, path) => method === 'POST' && isChat(path),
  validate,
  respond: (context, script) => {
    if (context.request.method === 'GET') {
      const names = [...new Set([...(context.options.models ?? []), ...pulledModels(context)])];
      const models = names.map((name) => ({
        name,
        model: name,
        modified_at: '2025-01-01T00:00:00Z',
        size: 2_019_393_189,
        digest: 'a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72',
        details: {
          parent_model: '',
          format: 'gguf',
          family: 'llama',
          families: ['llama'],
          parameter_size: '3.2B',
          quantization_level: 'Q4_K_M',
        },
      }));
      return json(200, { models });
    }
    // Ollama streams unless told `"stream": false`.
    if (bodyOf(context.request).stream === false) return json(200, reply(context, script));
    return { kind: 'stream', contentType: 'application/x-ndjson', frames: lines(context, script) };
  },
  error: (_context, error) =>
    json(error.status, error.body ?? { error: error.message ?? defaultErrorMessage(error.status) }),
};
