/**
 * Google Gemini (`POST /v1beta/models/{model}:generateContent` and
 * `:streamGenerateContent?alt=sse`), with thought parts, functionCall parts and usageMetadata.
 * https://ai.google.dev/api/generate-content
 */
import {
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
  sseData,
  type JsonObject,
  type RecordedRequest,
  type WireContext,
  type WireRoute,
} from './wire.ts';

const FINISH: Record<StopKind, string> = {
  stop: 'STOP',
  'tool-calls': 'STOP',
  length: 'MAX_TOKENS',
};
const PATH = /\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/** The model named in the request path (`gemini-2.5-flash`). */
export function geminiModelOf(request: RecordedRequest): string | undefined {
  const match = PATH.exec(request.path);
  return match?.[1] ? decodeURIComponent(match[1]) : undefined;
}

function usageMetadata(script: ReplyScript): JsonObject {
  const usage = usageOf(script);
  return {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: usage.outputTokens,
    totalTokenCount: usage.inputTokens + usage.outputTokens,
  };
}

function candidate(parts: JsonObject[], finish?: string): JsonObject {
  return {
    content: { role: 'model', parts },
    ...(finish ? { finishReason: finish } : {}),
    index: 0,
  };
}

function callParts(script: ReplyScript): JsonObject[] {
  return (script.toolCalls ?? []).map((call) => ({
    functionCall: { name: call.name, args: call.arguments },
  }));
}

function response(context: WireContext, script: ReplyScript): JsonObject {
  const parts: JsonObject[] = [];
  if (script.reasoning) parts.push({ text: script.reasoning, thought: true });
  if (script.text) parts.push({ text: script.text });
  parts.push(...callParts(script));
  return {
    candidates: [candidate(parts, FINISH[stopKind(script)])],
    usageMetadata: usageMetadata(script),
    modelVersion: geminiModelOf(context.request),
    responseId: 'fake-response-id',
  };
}

function chunks(context: WireContext, script: ReplyScript): JsonObject[] {
  const model = geminiModelOf(context.request);
  const chunk = (parts: JsonObject[]) => ({ candidates: [candidate(parts)], modelVersion: model });
  const out: JsonObject[] = [
    ...reasoningPieces(script).map((text) => chunk([{ text, thought: true }])),
    ...textPieces(script).map((text) => chunk([{ text }])),
  ];
  if (script.streamError !== undefined) {
    out.push({ error: { code: 500, message: script.streamError, status: 'INTERNAL' } });
    return out;
  }
  const calls = callParts(script);
  if (calls.length > 0) out.push(chunk(calls));
  out.push({
    candidates: [candidate([{ text: '' }], FINISH[stopKind(script)])],
    usageMetadata: usageMetadata(script),
    modelVersion: model,
  });
  return out;
}

const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

function validate(context: WireContext): string | undefined {
  if (arrayOf(bodyOf(context.request).contents).length === 0)
    return '* GenerateContentRequest.contents: contents is not specified';
  return undefined;
}

export const gemini: WireRoute = {
  name: 'gemini',
  matches: (method, path) => method === 'POST' && PATH.test(path),
  scripted: () => true,
  validate,
  respond: (context, script) => {
    if (!context.request.path.endsWith(':streamGenerateContent'))
      return json(200, response(context, script));
    const frames = chunks(context, script);
    // Without `alt=sse` the stream is one JSON array sent in pieces.
    if (context.request.query.alt === 'sse')
      return { kind: 'stream', contentType: 'text/event-stream', frames: frames.map(sseData) };
    return {
      kind: 'stream',
      contentType: 'application/json',
      frames: [`[${frames.map((f) => JSON.stringify(f)).join(',\n')}]`],
    };
  },
  error: (_context, error) =>
    json(
      error.status,
      error.body ?? {
        error: {
          code: error.status,
          message: error.message ?? defaultErrorMessage(error.status),
          status:
            STATUS[error.status] ?? (error.status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION'),
        },
      },
      retryHeaders(error.status),
    ),
};
