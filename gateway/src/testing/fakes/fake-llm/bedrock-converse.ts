/**
 * Amazon Bedrock Converse (`POST /model/{modelId}/converse`) and ConverseStream
 * (`POST /model/{modelId}/converse-stream`, AWS event-stream frames). Errors carry the
 * `x-amzn-errortype` header and a `{message}` body.
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
 */
import { encodeEvent, encodeException } from './aws-event-stream.ts';
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
  type JsonObject,
  type RecordedRequest,
  type WireContext,
  type WireRoute,
} from './wire.ts';

const STOP: Record<StopKind, string> = {
  stop: 'end_turn',
  'tool-calls': 'tool_use',
  length: 'max_tokens',
};
const PATH = /\/model\/([^/]+)\/(converse|converse-stream)$/;
const SIGNATURE = 'ErcBCkgIAxABGAIiQMn3hoLq3KBg';

/** The model id named in the request path, percent-decoded. */
export function bedrockModelOf(request: RecordedRequest): string | undefined {
  const match = PATH.exec(request.path);
  return match?.[1] ? decodeURIComponent(match[1]) : undefined;
}

function usageBody(script: ReplyScript): JsonObject {
  const usage = usageOf(script);
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    totalTokens: usage.inputTokens + usage.outputTokens,
  };
}

function toolCalls(script: ReplyScript) {
  return (script.toolCalls ?? []).map((call) => ({
    ...call,
    id: call.id ?? fakeId('tooluse_', 22),
  }));
}

function response(script: ReplyScript): JsonObject {
  const content: JsonObject[] = [];
  if (script.reasoning)
    content.push({
      reasoningContent: { reasoningText: { text: script.reasoning, signature: SIGNATURE } },
    });
  if (script.text) content.push({ text: script.text });
  for (const call of toolCalls(script))
    content.push({ toolUse: { toolUseId: call.id, name: call.name, input: call.arguments } });
  return {
    output: { message: { role: 'assistant', content } },
    stopReason: STOP[stopKind(script)],
    usage: usageBody(script),
    metrics: { latencyMs: 321 },
  };
}

/** Real events carry a random-length `p` padding field (against traffic analysis). */
function padded(body: JsonObject): JsonObject {
  return {
    ...body,
    p: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ'.slice(0, 6 + Math.floor(Math.random() * 20)),
  };
}

function streamFrames(script: ReplyScript): Uint8Array[] {
  const frames: Uint8Array[] = [encodeEvent('messageStart', padded({ role: 'assistant' }))];
  let index = 0;
  const delta = (body: JsonObject) =>
    frames.push(
      encodeEvent('contentBlockDelta', padded({ contentBlockIndex: index, delta: body })),
    );
  const stop = () => {
    frames.push(encodeEvent('contentBlockStop', padded({ contentBlockIndex: index })));
    index += 1;
  };
  const reasoning = reasoningPieces(script);
  if (reasoning.length > 0) {
    for (const text of reasoning) delta({ reasoningContent: { text } });
    delta({ reasoningContent: { signature: SIGNATURE } });
    stop();
  }
  const text = textPieces(script);
  if (text.length > 0) {
    for (const piece of text) delta({ text: piece });
    if (script.streamError !== undefined) {
      frames.push(encodeException('modelStreamErrorException', { message: script.streamError }));
      return frames;
    }
    stop();
  }
  for (const call of toolCalls(script)) {
    frames.push(
      encodeEvent(
        'contentBlockStart',
        padded({
          contentBlockIndex: index,
          start: { toolUse: { toolUseId: call.id, name: call.name } },
        }),
      ),
    );
    for (const input of jsonPieces(call.arguments)) delta({ toolUse: { input } });
    stop();
  }
  frames.push(encodeEvent('messageStop', padded({ stopReason: STOP[stopKind(script)] })));
  frames.push(
    encodeEvent('metadata', padded({ usage: usageBody(script), metrics: { latencyMs: 321 } })),
  );
  return frames;
}

const ERROR_TYPE: Record<number, string> = {
  400: 'ValidationException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  408: 'ModelTimeoutException',
  424: 'ModelErrorException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
};

function validate(context: WireContext): string | undefined {
  if (arrayOf(bodyOf(context.request).messages).length === 0) {
    return "1 validation error detected: Value null at 'messages' failed to satisfy constraint: Member must not be null";
  }
  return undefined;
}

export const bedrockConverse: WireRoute = {
  name: 'bedrock-converse',
  matches: (method, path) => method === 'POST' && PATH.test(path),
  scripted: () => true,
  validate,
  respond: (context, script) =>
    context.request.path.endsWith('/converse-stream')
      ? {
          kind: 'stream',
          contentType: 'application/vnd.amazon.eventstream',
          frames: streamFrames(script),
        }
      : json(200, response(script)),
  error: (_context, error) => {
    const type =
      ERROR_TYPE[error.status] ??
      (error.status >= 500 ? 'InternalServerException' : 'ValidationException');
    return json(
      error.status,
      error.body ?? { message: error.message ?? defaultErrorMessage(error.status) },
      {
        'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
        'x-amzn-requestid': fakeId('', 36),
      },
    );
  },
};
