import type * as Ai from 'ai';
import type { LanguageModel, ModelMessage, ToolSet } from 'ai';
import type {
  ChatMessage,
  FinishReason,
  Generation,
  GenerationEvent,
  ToolSpec,
  Usage,
} from './messages.ts';
import type { ProviderOptions } from './thinking.ts';
import { countWebSearches } from './web-search.ts';

export interface ModelCall {
  model: LanguageModel;
  system?: string;
  messages: readonly ChatMessage[];
  tools?: readonly ToolSpec[];
  /**
   * Provider-executed tools (web search) in the SDK's own form, added next to `tools`. Their
   * calls run at the provider and are never returned in `toolCalls`.
   */
  nativeTools?: ToolSet;
  providerOptions: ProviderOptions;
  signal?: AbortSignal;
  maxOutputTokens?: number;
}

/** A plain loop: this runs over the whole history on every step. */
function toModelMessages(messages: readonly ChatMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        out.push({ role: 'user', content: message.content });
        break;
      case 'assistant':
        if (Array.isArray(message.replay) && message.replay.length > 0)
          out.push(...(message.replay as ModelMessage[]));
        else if (!message.toolCalls?.length)
          out.push({ role: 'assistant', content: message.content });
        else
          out.push({
            role: 'assistant',
            content: [
              ...(message.content ? [{ type: 'text' as const, text: message.content }] : []),
              ...message.toolCalls.map((call) => ({
                type: 'tool-call' as const,
                toolCallId: call.id,
                toolName: call.name,
                input: call.arguments,
              })),
            ],
          });
        break;
      case 'tool':
        out.push({
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: message.toolCallId,
              toolName: message.toolName,
              output: message.isError
                ? { type: 'error-text', value: message.content }
                : { type: 'text', value: message.content },
            },
          ],
        });
        break;
    }
  }
  return out;
}

/**
 * The AI SDK is loaded on the first generation, not at start-up (it costs ~30 MB and ~150 ms
 * to import; a gateway that has not answered yet does not need it).
 */
let sdk: Promise<typeof Ai> | undefined;
const loadSdk = (): Promise<typeof Ai> => (sdk ??= import('ai'));

/**
 * A tool's SDK form, kept per parameters schema (the registry hands out the same schema object
 * every turn) and description: converting every offered tool again on every step cost ~2 % of
 * a generation's CPU in a profile.
 * A tool installed again or described anew gets a new entry; the old one goes with its schema.
 */
const sdkTools = new WeakMap<object, { description: string; tool: Ai.Tool }>();

function sdkTool(ai: typeof Ai, spec: ToolSpec): Ai.Tool {
  const known = sdkTools.get(spec.parameters);
  if (known !== undefined && known.description === spec.description) return known.tool;
  const tool = ai.tool({
    description: spec.description,
    inputSchema: ai.jsonSchema(spec.parameters),
  }) as Ai.Tool;
  sdkTools.set(spec.parameters, { description: spec.description, tool });
  return tool;
}

/** Tools are declared without `execute`: the model's calls come back to Hearth's own loop. */
function toToolSet(
  ai: typeof Ai,
  tools: readonly ToolSpec[] | undefined,
  nativeTools: ToolSet | undefined,
): ToolSet | undefined {
  if (!tools?.length && !nativeTools) return undefined;
  const set: ToolSet = {};
  for (const spec of tools ?? []) set[spec.name] = sdkTool(ai, spec);
  return nativeTools ? { ...set, ...nativeTools } : set;
}

function toUsage(usage: {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
}): Usage {
  return { inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0 };
}

const FINISH: Record<string, FinishReason> = {
  stop: 'stop',
  length: 'length',
  'tool-calls': 'tool-calls',
  'content-filter': 'content-filter',
  error: 'error',
};

/** The calls Hearth must run: provider-executed ones (web search) already ran upstream. */
function toCalls(
  calls: readonly {
    toolCallId: string;
    toolName: string;
    input: unknown;
    providerExecuted?: boolean;
  }[],
): Generation['toolCalls'] {
  return calls
    .filter((call) => call.providerExecuted !== true)
    .map((call) => ({
      id: call.toolCallId,
      name: call.toolName,
      arguments: (call.input ?? {}) as Record<string, unknown>,
    }));
}

/** URL sources (web search results, citations), each URL once. */
function toSources(
  sources: readonly ({ sourceType: 'url'; url: string; title?: string } | { sourceType: string })[],
): Generation['sources'] {
  const seen = new Set<string>();
  const out: NonNullable<Generation['sources']> = [];
  for (const source of sources) {
    if (!('url' in source) || seen.has(source.url)) continue;
    seen.add(source.url);
    out.push({ url: source.url, ...(source.title ? { title: source.title } : {}) });
  }
  return out;
}

function request(ai: typeof Ai, call: ModelCall) {
  return {
    model: call.model,
    instructions: call.system,
    messages: toModelMessages(call.messages),
    tools: toToolSet(ai, call.tools, call.nativeTools),
    providerOptions: call.providerOptions as never,
    abortSignal: call.signal,
    maxOutputTokens: call.maxOutputTokens,
    maxRetries: 0,
    // Hearth registers no AI SDK telemetry integration; left on, the SDK still builds and
    // redacts a copy of every step's event for its tracing channel: ~4 % of the CPU of a
    // generation (140-message history, 12 tools) in a profile.
    telemetry: { isEnabled: false },
  };
}

/**
 * Continuations of a turn the provider paused, per generation step. Anthropic ends a long
 * server-tool turn (web search) with `stop_reason: "pause_turn"`; the turn goes on when the
 * request is sent again with the paused assistant content as its last message. Continuations
 * have this cap of their own, apart from `max_tool_steps`: a paused turn holds no calls for
 * Hearth to run. A turn still paused after them ends with what it has (finish reason `other`).
 */
export const MAX_PAUSE_CONTINUATIONS = 3;

/**
 * A step's response messages without the SDK's own tool messages. Tools are declared without
 * `execute`, so the only ones it writes answer a call of a tool it was not given this step
 * ("unavailable tool …"): Hearth runs or refuses every call itself and answers each once, in its
 * own tool message — a second answer to the same call would be replayed upstream beside it.
 */
function withoutSdkToolAnswers<T extends { role: string }>(messages: readonly T[]): T[] {
  return messages.filter((message) => message.role !== 'tool');
}

/** What one response of a (possibly continued) step reports. */
interface Segment {
  text: string;
  reasoning: string;
  toolCalls: Parameters<typeof toCalls>[0];
  sources: Parameters<typeof toSources>[0];
  usage: Parameters<typeof toUsage>[0];
  webSearches: number;
  finishReason: string;
  paused: boolean;
  messages: ModelMessage[];
}

/** The step's generation: its responses (a paused turn and its continuations) as one. */
function combine(segments: readonly Segment[]): Generation {
  const last = segments.at(-1);
  const usage = segments.reduce(
    (total, segment) => {
      const { inputTokens, outputTokens } = toUsage(segment.usage);
      return {
        inputTokens: total.inputTokens + inputTokens,
        outputTokens: total.outputTokens + outputTokens,
      };
    },
    { inputTokens: 0, outputTokens: 0 },
  );
  const webSearches = segments.reduce((total, segment) => total + segment.webSearches, 0);
  return {
    replay: segments.flatMap((segment) => segment.messages),
    text: segments.map((segment) => segment.text).join(''),
    reasoning: segments.map((segment) => segment.reasoning).join(''),
    toolCalls: toCalls(segments.flatMap((segment) => segment.toolCalls)),
    sources: toSources(segments.flatMap((segment) => segment.sources)),
    usage,
    ...(webSearches > 0 ? { webSearches } : {}),
    finishReason: last?.paused ? 'other' : (FINISH[last?.finishReason ?? ''] ?? 'other'),
  };
}

/** Is there another continuation to ask for after these responses? */
const continues = (segments: readonly Segment[]): boolean =>
  segments.at(-1)?.paused === true && segments.length <= MAX_PAUSE_CONTINUATIONS;

/** One non-streaming generation step (no tool execution: the caller runs the tool loop). */
export async function generate(call: ModelCall): Promise<Generation> {
  const ai = await loadSdk();
  const base = request(ai, call);
  const segments: Segment[] = [];
  do {
    const messages = [...base.messages, ...segments.flatMap((segment) => segment.messages)];
    const result = await ai.generateText({ ...base, messages });
    segments.push({
      text: result.text,
      reasoning: result.reasoningText ?? '',
      toolCalls: result.toolCalls,
      sources: result.sources,
      usage: result.usage,
      webSearches: countWebSearches({
        content: result.content,
        providerMetadata: result.providerMetadata,
      }),
      finishReason: result.finishReason,
      paused: result.rawFinishReason === 'pause_turn',
      messages: withoutSdkToolAnswers(result.response.messages),
    });
  } while (continues(segments));
  return combine(segments);
}

/**
 * One streaming generation step: text and reasoning deltas, then a `finish` with the totals. A
 * paused turn's continuations stream on as part of the same step.
 */
export async function* stream(call: ModelCall): AsyncGenerator<GenerationEvent> {
  const ai = await loadSdk();
  const base = request(ai, call);
  const segments: Segment[] = [];
  do {
    let failure: { error: unknown } | undefined;
    const result = ai.streamText({
      ...base,
      messages: [...base.messages, ...segments.flatMap((segment) => segment.messages)],
      onError: ({ error }) => {
        failure = { error };
      },
    });
    let text = '';
    let reasoning = '';
    for await (const part of result.stream) {
      if ((part.type === 'text-delta' || part.type === 'reasoning-delta') && part.text === '')
        continue;
      if (part.type === 'text-delta') {
        text += part.text;
        yield { type: 'text', text: part.text };
      } else if (part.type === 'reasoning-delta') {
        reasoning += part.text;
        yield { type: 'reasoning', text: part.text };
      } else if (part.type === 'error') {
        throw part.error;
      }
    }
    if (failure) throw failure.error;
    segments.push({
      text,
      reasoning,
      toolCalls: await result.toolCalls,
      sources: await result.sources,
      usage: await result.usage,
      webSearches: countWebSearches({
        content: await result.content,
        providerMetadata: await result.providerMetadata,
      }),
      finishReason: await result.finishReason,
      paused: (await result.rawFinishReason) === 'pause_turn',
      messages: withoutSdkToolAnswers((await result.response).messages),
    });
  } while (continues(segments));
  yield { type: 'finish', generation: combine(segments) };
}
