/**
 * Cohere Chat v2 (`POST /v2/chat`), JSON and SSE events `message-start`, `content-*`,
 * `tool-plan-delta`, `tool-call-start/delta/end`, `message-end` with usage.
 * https://docs.cohere.com/reference/chat and https://docs.cohere.com/v2/docs/streaming
 */
import {
  fakeId,
  jsonPieces,
  reasoningPieces,
  stopKind,
  textPieces,
  usageOf,
  type ReplyScript,
  type StopKind,
} from './script.ts';
import {
  arrayOf,
  bodyOf,
  defaultErrorMessage,
  json,
  retryHeaders,
  sseEvent,
  type JsonObject,
  type WireContext,
  type WireRoute,
} from './wire.ts';

const FINISH: Record<StopKind, string> = {
  stop: 'COMPLETE',
  'tool-calls': 'TOOL_CALL',
  length: 'MAX_TOKENS',
};
const TOOL_PLAN = 'I will call a tool to answer this.';

function usageBody(script: ReplyScript): JsonObject {
  const usage = usageOf(script);
  const tokens = { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens };
  return { billed_units: tokens, tokens };
}

function toolCalls(script: ReplyScript) {
  return (script.toolCalls ?? []).map((call) => ({
    ...call,
    id: call.id ?? fakeId(`${call.name}_`, 12),
  }));
}

function response(script: ReplyScript): JsonObject {
  const calls = toolCalls(script);
  const content: JsonObject[] = [];
  if (script.reasoning) content.push({ type: 'thinking', thinking: script.reasoning });
  if (script.text) content.push({ type: 'text', text: script.text });
  const message: JsonObject = { role: 'assistant' };
  if (content.length > 0) message.content = content;
  if (calls.length > 0) {
    message.tool_plan = TOOL_PLAN;
    message.tool_calls = calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    }));
  }
  return {
    id: fakeId(''),
    message,
    finish_reason: FINISH[stopKind(script)],
    usage: usageBody(script),
  };
}

function streamFrames(script: ReplyScript): string[] {
  const id = fakeId('');
  const event = (type: string, rest: JsonObject) => sseEvent(type, { type, ...rest });
  const frames = [
    event('message-start', {
      id,
      delta: {
        message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] },
      },
    }),
  ];
  let index = 0;
  const content = (type: 'thinking' | 'text', pieces: string[]) => {
    if (pieces.length === 0) return;
    frames.push(
      event('content-start', { index, delta: { message: { content: { type, [type]: '' } } } }),
    );
    for (const piece of pieces) {
      frames.push(
        event('content-delta', { index, delta: { message: { content: { [type]: piece } } } }),
      );
    }
    frames.push(event('content-end', { index }));
    index += 1;
  };
  content('thinking', reasoningPieces(script));
  content('text', textPieces(script));
  // Cohere documents no in-stream error event: a failure is a stream cut short.
  if (script.streamError !== undefined) return frames;
  const calls = toolCalls(script);
  if (calls.length > 0)
    frames.push(event('tool-plan-delta', { delta: { message: { tool_plan: TOOL_PLAN } } }));
  calls.forEach((call, callIndex) => {
    frames.push(
      event('tool-call-start', {
        index: callIndex,
        delta: {
          message: {
            tool_calls: {
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: '' },
            },
          },
        },
      }),
    );
    for (const piece of jsonPieces(call.arguments)) {
      frames.push(
        event('tool-call-delta', {
          index: callIndex,
          delta: { message: { tool_calls: { function: { arguments: piece } } } },
        }),
      );
    }
    frames.push(event('tool-call-end', { index: callIndex }));
  });
  frames.push(
    event('message-end', {
      id,
      delta: { finish_reason: FINISH[stopKind(script)], usage: usageBody(script) },
    }),
  );
  return frames;
}

function validate(context: WireContext): string | undefined {
  const body = bodyOf(context.request);
  if (typeof body.model !== 'string') return 'invalid request: model must be specified';
  if (arrayOf(body.messages).length === 0) return 'invalid request: messages must not be empty';
  return undefined;
}

export const cohereChat: WireRoute = {
  name: 'cohere-chat',
  matches: (method, path) => method === 'POST' && path.endsWith('/v2/chat'),
  scripted: () => true,
  validate,
  respond: (context, script) =>
    bodyOf(context.request).stream === true
      ? { kind: 'stream', contentType: 'text/event-stream', frames: streamFrames(script) }
      : json(200, response(script)),
  error: (_context, error) =>
    json(
      error.status,
      error.body ?? { id: fakeId(''), message: error.message ?? defaultErrorMessage(error.status) },
      retryHeaders(error.status),
    ),
};
