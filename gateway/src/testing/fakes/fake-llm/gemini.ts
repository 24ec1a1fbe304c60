/**
 * Google Gemini (`POST /v1beta/models/{model}:generateContent` and
 * `:streamGenerateContent?alt=sse`), with thought parts, functionCall parts, usageMetadata and
 * Google Search grounding (`groundingMetadata`; with `includeServerSideToolInvocations`, the
 * search also as `toolCall`/`toolResponse` parts). Requests are checked against the documented
 * thinking rules of each model generation.
 * https://ai.google.dev/api/generate-content, https://ai.google.dev/gemini-api/docs/google-search,
 * https://ai.google.dev/gemini-api/docs/tool-combination and https://ai.google.dev/gemini-api/docs/thinking
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
  isObject,
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

function candidate(parts: JsonObject[], finish?: string, grounding?: JsonObject): JsonObject {
  return {
    content: { role: 'model', parts },
    ...(finish ? { finishReason: finish } : {}),
    ...(grounding ? { groundingMetadata: grounding } : {}),
    index: 0,
  };
}

/** What Google Search grounding attaches to the candidate: queries, pages, supported spans. */
function groundingMetadata(script: ReplyScript): JsonObject | undefined {
  const search = script.webSearch;
  if (!search) return undefined;
  const text = script.text ?? '';
  return {
    webSearchQueries: [search.query],
    searchEntryPoint: {
      renderedContent: '<style>.container{}</style><div class="container"></div>',
    },
    groundingChunks: search.results.map((result) => ({
      web: {
        uri: `https://vertexaisearch.cloud.google.com/grounding-api-redirect/${encodeURIComponent(result.url)}`,
        title: result.title,
      },
    })),
    groundingSupports:
      text === ''
        ? []
        : [
            {
              segment: { startIndex: 0, endIndex: text.length, text },
              groundingChunkIndices: [0],
              confidenceScores: [0.9],
            },
          ],
  };
}

/**
 * With built-in and function tools combined (`toolConfig.includeServerSideToolInvocations`),
 * Gemini 3 also returns the search as `toolCall` and `toolResponse` parts, to be sent back.
 */
function serverToolParts(context: WireContext, script: ReplyScript): JsonObject[] {
  const search = script.webSearch;
  const toolConfig = bodyOf(context.request).toolConfig;
  if (!search || !isObject(toolConfig) || toolConfig.includeServerSideToolInvocations !== true)
    return [];
  const id = `search-${search.query.length}-${search.results.length}`;
  return [
    {
      toolCall: { toolType: 'GOOGLE_SEARCH_WEB', args: { queries: [search.query] }, id },
      thoughtSignature: THOUGHT_SIGNATURE,
    },
    {
      toolResponse: {
        toolType: 'GOOGLE_SEARCH_WEB',
        response: { search_suggestions: search.query },
        id,
      },
    },
  ];
}

const THOUGHT_SIGNATURE = 'CiQBjz1rX4fakeSignatureOfTheModelsThinkingForThisStep0123';

/** Gemini 3 signs the first function call of a step (https://ai.google.dev/gemini-api/docs/thought-signatures). */
function callParts(context: WireContext, script: ReplyScript): JsonObject[] {
  const signed = !olderThanGemini3(geminiModelOf(context.request) ?? '');
  return (script.toolCalls ?? []).map((call, index) => ({
    functionCall: { name: call.name, args: call.arguments },
    ...(signed && index === 0 ? { thoughtSignature: THOUGHT_SIGNATURE } : {}),
  }));
}

function response(context: WireContext, script: ReplyScript): JsonObject {
  const parts: JsonObject[] = [];
  if (script.reasoning) parts.push({ text: script.reasoning, thought: true });
  parts.push(...serverToolParts(context, script));
  if (script.text) parts.push({ text: script.text });
  parts.push(...callParts(context, script));
  return {
    candidates: [candidate(parts, FINISH[stopKind(script)], groundingMetadata(script))],
    usageMetadata: usageMetadata(script),
    modelVersion: geminiModelOf(context.request),
    responseId: 'fake-response-id',
  };
}

function chunks(context: WireContext, script: ReplyScript): JsonObject[] {
  const model = geminiModelOf(context.request);
  const chunk = (parts: JsonObject[]) => ({ candidates: [candidate(parts)], modelVersion: model });
  const server = serverToolParts(context, script);
  const out: JsonObject[] = [
    ...reasoningPieces(script).map((text) => chunk([{ text, thought: true }])),
    ...(server.length > 0 ? [chunk(server)] : []),
    ...textPieces(script).map((text) => chunk([{ text }])),
  ];
  if (script.streamError !== undefined) {
    out.push({ error: { code: 500, message: script.streamError, status: 'INTERNAL' } });
    return out;
  }
  const calls = callParts(context, script);
  if (calls.length > 0) out.push(chunk(calls));
  out.push({
    candidates: [candidate([{ text: '' }], FINISH[stopKind(script)], groundingMetadata(script))],
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

/** Gemini 2.x and earlier: built-in tools and function calling cannot share a request. */
function olderThanGemini3(model: string): boolean {
  return /^gemini-[12](?:[.-]|$)/.test(model);
}

function validateTools(body: JsonObject, model: string): string | undefined {
  const tools = arrayOf(body.tools).filter(isObject);
  const search = tools.some((tool) => tool.googleSearch !== undefined);
  const functions = tools.some((tool) => tool.functionDeclarations !== undefined);
  if (search && functions && olderThanGemini3(model))
    return 'Tool use with function calling is unsupported';
  return undefined;
}

/**
 * The documented thinking rules: 1.x/2.0 cannot think; 2.5 takes a budget (2.5 Pro 128–32768,
 * it cannot turn thinking off); Gemini 3 takes a level (3 Pro: low or high), not both.
 */
function validateThinking(body: JsonObject, model: string): string | undefined {
  const config = isObject(body.generationConfig) ? body.generationConfig.thinkingConfig : undefined;
  if (!isObject(config)) return undefined;
  const budget = config.thinkingBudget;
  const level = config.thinkingLevel;
  if (budget !== undefined && level !== undefined)
    return 'You can only set only one of thinking budget and thinking level.';
  if (/^gemini-(1|2\.0)(?:[.-]|$)/.test(model) && (budget !== undefined || level !== undefined))
    return 'Thinking is not supported for this model.';
  if (level !== undefined) {
    if (olderThanGemini3(model)) return 'Thinking level is not supported for this model.';
    if (/^gemini-3-pro(?:-preview)?$/.test(model) && level !== 'low' && level !== 'high')
      return `Thinking level ${JSON.stringify(level).toUpperCase()} is not supported for this model.`;
  }
  if (typeof budget === 'number' && /^gemini-2\.5-pro(?:[.-]|$)/.test(model)) {
    if (budget === 0) return 'Budget 0 is invalid. This model only works in thinking mode.';
    if (budget !== -1 && (budget < 128 || budget > 32_768))
      return `The thinking budget ${budget} is invalid. Please choose a value between 128 and 32768.`;
  }
  return undefined;
}

function validate(context: WireContext): string | undefined {
  const body = bodyOf(context.request);
  if (arrayOf(body.contents).length === 0)
    return '* GenerateContentRequest.contents: contents is not specified';
  const model = geminiModelOf(context.request) ?? '';
  return validateTools(body, model) ?? validateThinking(body, model);
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
