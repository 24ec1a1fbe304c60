import type { Logger } from 'pino';
import { HearthError, validationError } from '../errors.ts';
import type { ApprovalService, UntrustedSource } from '../approvals/ports.ts';
import {
  type Compactor,
  contentHash,
  type ConversationHistory,
  type HistoryMessage,
  type MemoryService,
  memoryPromptBlock,
  type RememberedTurn,
  type RetrievedMemory,
} from '../memory/ports.ts';
import { channelLabel } from '../observability/labels.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { SessionContext } from '../privacy/ports.ts';
import {
  resolveModel,
  contextWindowOf,
  type ChatMessage,
  type FinishReason,
  type ToolCall,
  type Usage,
  type LlmRouter,
  type RoutedGeneration,
} from '../providers/ports.ts';
import type { SettingsService } from '../settings/ports.ts';
import type { ConversationStore, SessionState } from '../sessions/ports.ts';
import type { Persona } from './persona.ts';
import { createRememberedTurns } from './remembered-turns.ts';
import {
  createProvenanceLedger,
  createToolDescriptionSources,
  turnOrigin,
  type ProvenanceLedger,
} from './provenance.ts';
import { qualityScore } from './quality.ts';
import { handleSlashCommand } from './slash-commands.ts';
import type { ToolSelector } from './tool-selection/tool-selector.ts';
import {
  offerForTurn,
  recentMessages,
  type ToolSelectionSettings,
  type TurnOffer,
} from './tool-selection/turn-offer.ts';
import type { ToolRegistry } from '../tools/ports.ts';

/** Longest accepted chat message, in characters. */
export const MAX_MESSAGE_CHARS = 32_000;
/** Memories retrieved per turn (the spec's top_k for the chat pipeline). */
export const CHAT_TOP_K = 8;

export interface TurnInput {
  sessionId: string;
  message: string;
  /** 'api', 'ws', 'telegram', … (metrics label). */
  channel: string;
  /** Replaces the persona prompt for this request. */
  systemPrompt?: string;
  /** Appended to the system prompt (e.g. the canvas hint). */
  systemSuffix?: string;
  /** An explicit model id for this request. */
  model?: string;
  signal?: AbortSignal;
  /**
   * Stop (a socket's `stop` frame): when this aborts (`signal` aborts with it), the turn ends
   * with the text streamed so far as its reply, kept in the history like any other, and
   * `stopped`. Stopped before any text, nothing is kept.
   */
  stopSignal?: AbortSignal;
  /**
   * Edit and resend: this turn replaces the conversation's last user message and its reply
   * (in the live and the stored history, and in short- and long-term memory). Refused (409) when there is none.
   */
  replaceLast?: boolean;
  /** Streaming: called with each text delta as it arrives. */
  onText?: (delta: string) => void | Promise<void>;
  /** Told when the model calls a tool, before it runs. */
  onToolCall?: (call: ToolCall) => void | Promise<void>;
  /** Told what a tool call returned (an error: `isError`), before the next model step. */
  onToolResult?: (call: ToolCall, result: ToolRunResult) => void | Promise<void>;
  /**
   * Untrusted content the caller puts into the turn with the message (a channel message from
   * anyone but the paired owner): the turn starts tainted, and the message keeps that origin
   * in the history.
   */
  untrustedSources?: readonly UntrustedSource[];
  /**
   * Text the caller quotes ahead of the message in this turn's request only (a group chat's
   * recent messages): it is not kept in the history or memory. `untrustedSources` names its
   * untrusted parts (a stranger's message): the turn is untrusted then.
   */
  context?: { text: string; untrustedSources: readonly UntrustedSource[] };
}

/** What one tool call returned to the model. */
export interface ToolRunResult {
  content: string;
  isError: boolean;
}

export interface TurnResult {
  reply: string;
  sessionId: string;
  provider: string;
  model: string;
  usage: Usage;
  qualityScore: number;
  finishReason: FinishReason;
  toolSteps: number;
  /** Pages the provider's own web search cited over the turn, each URL once (none: absent). */
  sources?: { url: string; title?: string }[];
  /** The memories retrieved into the turn's system prompt (none: absent). */
  memories?: RetrievedMemory[];
  /** The slash command that answered, when one did (no model was called). */
  command?: string;
  /** Stopped by the caller: `reply` is what was streamed until then. */
  stopped?: boolean;
}

export interface PipelineSettings {
  maxToolSteps: number;
}

export interface ChatPipelineDeps {
  router: LlmRouter;
  memory: MemoryService;
  compactor: Compactor;
  /** Sessions' stored history: restored on a conversation's first turn here, appended after each. */
  history: ConversationHistory;
  conversations: ConversationStore;
  tools: ToolRegistry;
  /** Ranks the installed tools beyond the core by relevance to a turn. */
  toolSelector: ToolSelector;
  /** `[tools] selection` and `max_offered`. */
  toolSelection: ToolSelectionSettings;
  persona: Persona;
  settings: SettingsService;
  pipeline: PipelineSettings;
  sessionContext: SessionContext;
  /** The approval gate, for chat replies `approve <id>` / `deny <id>` (absent until built). */
  approvals?: () => ApprovalService | undefined;
  /** `/node <name> <message>`: one reply from an orchestrator node (absent: no orchestrator). */
  delegateToNode?: (node: string, message: string) => Promise<string>;
  metrics: Metrics;
  logger: Logger;
  now: () => number;
}

function add(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
  };
}

/**
 * One chat turn, the same for every entry point (REST, both WebSockets, channel adapters):
 * validate → slash command (no model) → memory retrieval (top_k 8) → router call with the
 * tools the turn offers (the core and the relevant ones: tool-selection/turn-offer.ts), looping
 * tool calls up to `max_tool_steps` → reply → the turn is written to memory, metrics recorded,
 * compaction considered — after the reply, in the background.
 */
export function createChatPipeline(deps: ChatPipelineDeps) {
  const descriptionSources = createToolDescriptionSources();
  async function generateStep(
    request: Parameters<LlmRouter['generate']>[0],
    input: TurnInput,
    streamed: { text: string },
  ): Promise<RoutedGeneration> {
    streamed.text = '';
    if (!input.onText) return deps.router.generate(request);
    for await (const event of deps.router.stream(request)) {
      if (event.type === 'text') {
        streamed.text += event.text;
        await input.onText(event.text);
      } else if (event.type === 'done') return event.result;
    }
    throw new HearthError('upstream', 'The model stream ended without a result');
  }

  async function runTool(
    call: ToolCall,
    input: TurnInput,
    ledger: ProvenanceLedger,
    offer: TurnOffer,
  ): Promise<ToolRunResult> {
    const tool = deps.tools.get(call.name);
    if (!tool) return { content: `Error: no tool named ${call.name}`, isError: true };
    let result: ToolRunResult;
    try {
      result = {
        content: await tool.execute(
          {
            sessionId: input.sessionId,
            channel: input.channel,
            signal: input.signal,
            untrustedSources: ledger.sources,
            noteUntrusted: ledger.add,
            offerTools: (names) => {
              // What the tool found is offered from the next step: its descriptions are read.
              if (offer.add(names)) ledger.toolDescriptions(descriptionSources(offer.tools()));
            },
          },
          call.arguments,
        ),
        isError: false,
      };
    } catch (error) {
      result = { content: error instanceof Error ? error.message : String(error), isError: true };
    }
    // What the tool returned is in the turn's context from now on: its provenance too.
    ledger.toolResult(tool, call.arguments, result.content);
    return result;
  }

  /**
   * Content hashes of history messages, computed once per message: the exclusion set is built
   * every turn over the whole live history, and hashing it all again made each turn O(history)
   * in sha256 work. Messages leave the map when compaction drops them from the history.
   */
  const hashes = new WeakMap<ChatMessage, string>();
  function hashOf(message: ChatMessage): string {
    let hash = hashes.get(message);
    if (hash === undefined) {
      hash = contentHash(message.content);
      hashes.set(message, hash);
    }
    return hash;
  }

  /**
   * The content hashes of a live history, kept per history and extended as turns are pushed:
   * rebuilt only when its start or the messages already seen changed (a restore, a compaction).
   */
  const seen = new WeakMap<
    ChatMessage[],
    { hashes: Set<string>; length: number; first?: ChatMessage; last?: ChatMessage }
  >();
  function historyHashes(history: ChatMessage[]): ReadonlySet<string> {
    let known = seen.get(history);
    const unchanged =
      known !== undefined &&
      known.length > 0 &&
      history.length >= known.length &&
      history[0] === known.first &&
      history[known.length - 1] === known.last;
    if (!unchanged || known === undefined) {
      known = { hashes: new Set(), length: 0 };
      seen.set(history, known);
    }
    for (let i = known.length; i < history.length; i += 1)
      known.hashes.add(hashOf(history[i] as ChatMessage));
    known.length = history.length;
    known.first = history[0];
    known.last = history.at(-1);
    return known.hashes;
  }

  async function systemPromptFor(
    input: TurnInput,
    state: SessionState,
    ledger: ProvenanceLedger,
  ): Promise<{ system: string; memories: RetrievedMemory[] }> {
    const exclude = historyHashes(state.conversation.history);
    const memories = await deps.memory
      .retrieve({ sessionId: input.sessionId, query: input.message, topK: CHAT_TOP_K, exclude })
      .catch((error: unknown) => {
        deps.logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'memory retrieval failed',
        );
        return [];
      });
    ledger.memories(memories);
    const system = [
      input.systemPrompt ?? (await deps.persona.systemPrompt()),
      state.conversation.summary
        ? `<conversation-summary>\n${state.conversation.summary}\n</conversation-summary>`
        : '',
      memoryPromptBlock(memories),
      input.systemSuffix ?? '',
    ]
      .filter(Boolean)
      .join('\n\n');
    return { system, memories };
  }

  async function modelTurn(
    input: TurnInput,
    state: SessionState,
    ledger: ProvenanceLedger,
  ): Promise<TurnResult> {
    // What the request holds besides the owner's words and Hearth's: what the caller hands in,
    // what the history still holds from earlier turns, third parties' tool descriptions.
    for (const source of input.untrustedSources ?? []) ledger.add(source);
    for (const source of input.context?.untrustedSources ?? []) ledger.add(source);
    ledger.conversation(state.conversation);
    // Only the tools the turn offers put their descriptions in front of the model.
    const offer = await offerForTurn(
      { registry: deps.tools, selector: deps.toolSelector, settings: deps.toolSelection },
      input.message,
      recentMessages(state.conversation),
    );
    ledger.toolDescriptions(descriptionSources(offer.tools()));
    const { system, memories } = await systemPromptFor(input, state, ledger);
    const working: ChatMessage[] = [
      ...state.conversation.history,
      {
        role: 'user',
        content: input.context ? `${input.context.text}\n\n${input.message}` : input.message,
      },
    ];
    let usage: Usage = { inputTokens: 0, outputTokens: 0 };
    let toolSteps = 0;
    const sources = new Map<string, { url: string; title?: string }>();
    const streamed = { text: '' };
    for (;;) {
      let generation: RoutedGeneration;
      try {
        generation = await generateStep(
          {
            messages: working,
            system,
            tools: offer.specs(),
            model: input.model,
            signal: input.signal,
          },
          input,
          streamed,
        );
      } catch (error) {
        if (!input.stopSignal?.aborted) throw error;
        // The provider never finished: which one (and which model) answered is unknown.
        return {
          reply: streamed.text,
          sessionId: input.sessionId,
          provider: 'unknown',
          model: input.model ?? 'unknown',
          usage,
          toolSteps,
          finishReason: 'stop',
          qualityScore: qualityScore(input.message, streamed.text, 'stop'),
          stopped: true,
        };
      }
      usage = add(usage, generation.usage);
      for (const source of generation.sources ?? [])
        if (!sources.has(source.url)) sources.set(source.url, source);
      const base = {
        sessionId: input.sessionId,
        provider: generation.provider,
        model: generation.model,
        usage,
        toolSteps,
        ...(sources.size > 0 ? { sources: [...sources.values()] } : {}),
        ...(memories.length > 0 ? { memories } : {}),
      };
      if (generation.toolCalls.length === 0) {
        return {
          ...base,
          reply: generation.text,
          finishReason: generation.finishReason,
          qualityScore: qualityScore(input.message, generation.text, generation.finishReason),
        };
      }
      if (toolSteps >= deps.pipeline.maxToolSteps) {
        const reply =
          `${generation.text ? `${generation.text}\n\n` : ''}I stopped after ${toolSteps} tool ${toolSteps === 1 ? 'step' : 'steps'}, ` +
          `the limit for one turn (max_tool_steps = ${deps.pipeline.maxToolSteps}). Ask me to continue if you want me to go on.`;
        return {
          ...base,
          reply,
          finishReason: 'tool-calls',
          qualityScore: qualityScore(input.message, reply, 'tool-calls'),
        };
      }
      toolSteps += 1;
      working.push({
        role: 'assistant',
        content: generation.text,
        toolCalls: generation.toolCalls,
        replay: generation.replay,
      });
      for (const call of generation.toolCalls) {
        await input.onToolCall?.(call);
        const result = await runTool(call, input, ledger, offer);
        await input.onToolResult?.(call, result);
        working.push({
          role: 'tool',
          toolCallId: call.id,
          toolName: call.name,
          content: result.content,
          isError: result.isError,
        });
      }
      // A tool the model called without being offered it is offered from the next step on.
      if (offer.add(generation.toolCalls.map((call) => call.name)))
        ledger.toolDescriptions(descriptionSources(offer.tools()));
    }
  }

  /** What each live exchange wrote to memory, so edit and resend forgets exactly that. */
  const rememberedTurns = createRememberedTurns(() => deps.memory);

  /**
   * Edit and resend: drops the last user message and its reply from the history (in memory and
   * stored) and forgets what that turn wrote to memory; 409 when there is none.
   */
  async function replaceLastExchange(sessionId: string, state: SessionState): Promise<void> {
    const history = state.conversation.history;
    const last = history.findLastIndex((message) => message.role === 'user');
    const dropped = last < 0 ? [] : history.slice(last);
    if (!(await deps.history.dropLastExchange(sessionId, state.conversation)))
      throw new HearthError('conflict', 'There is no earlier message to replace');
    try {
      await rememberedTurns.forget(sessionId, dropped);
    } catch (error) {
      deps.logger.warn(
        { sessionId, err: error instanceof Error ? error.message : String(error) },
        'the replaced turn could not be forgotten in memory',
      );
    }
  }

  function afterReply(
    input: TurnInput,
    state: SessionState,
    result: TurnResult,
    ledger: ProvenanceLedger,
  ): void {
    const conversation = state.conversation;
    // Stopped before a word of its reply: the turn leaves nothing behind.
    if (result.stopped && result.reply === '') return;
    // What the turn read stays with what is made of it: its reply in the history (every later
    // turn that sends it upstream holds it too, and a compaction summary of it inherits it), a
    // forwarded message as the user's, and the memory rows it writes (recalled later, they mark
    // the turn that recalls them).
    const origin = ledger.origin();
    const userOrigin = turnOrigin(input.untrustedSources ?? []);
    const user: HistoryMessage = {
      role: 'user',
      content: input.message,
      ...(userOrigin ? { origin: userOrigin } : {}),
    };
    const reply: HistoryMessage = {
      role: 'assistant',
      content: result.reply,
      ...(origin ? { origin } : {}),
    };
    conversation.history.push(user, reply);
    const target = resolveModel(result.model);
    const window = target ? contextWindowOf(target.provider, target.nativeId) : 8_192;
    let written: (remembered: Promise<RememberedTurn | null>) => void = () => undefined;
    rememberedTurns.track(user, new Promise((resolve) => (written = resolve)));
    setImmediate(() => {
      const stored = deps.history.append(input.sessionId, [user, reply]);
      const remembered = deps.memory
        .rememberTurn({
          sessionId: input.sessionId,
          user: input.message,
          assistant: result.reply,
          ...(origin ? { origin } : {}),
        })
        .catch((error: unknown) => {
          deps.logger.warn(
            { err: error instanceof Error ? error.message : String(error) },
            'memory write failed',
          );
          return null;
        });
      written(remembered);
      void Promise.all([stored, remembered]).finally(() =>
        deps.compactor.compactInBackground(input.sessionId, conversation, window),
      );
    });
  }

  return {
    async runTurn(input: TurnInput): Promise<TurnResult> {
      const text = input.message.trim();
      if (text === '') throw validationError('Empty message');
      if (input.message.length > MAX_MESSAGE_CHARS) {
        throw new HearthError(
          'payload_too_large',
          `Message too long: ${input.message.length} characters (limit ${MAX_MESSAGE_CHARS})`,
        );
      }
      const channel = channelLabel(input.channel);
      deps.metrics.messagesTotal.inc({ channel });
      // Approval replies are decided outside the session's turn queue: the turn that asked is
      // waiting in that queue for exactly this answer.
      const decided = await deps.approvals?.()?.decideFromChat(input.sessionId, text);
      if (decided !== undefined) {
        if (input.onText) await input.onText(decided);
        deps.metrics.messagesSentTotal.inc({ channel });
        return {
          reply: decided,
          sessionId: input.sessionId,
          provider: 'hearth',
          model: 'command',
          usage: { inputTokens: 0, outputTokens: 0 },
          qualityScore: 1,
          finishReason: 'stop',
          toolSteps: 0,
          command: text.split(/\s/)[0]?.toLowerCase(),
        };
      }
      return deps.conversations.serialise(input.sessionId, () =>
        deps.sessionContext.run(input.sessionId, async () => {
          const state = deps.conversations.get(input.sessionId);
          state.lastActive = deps.now();
          try {
            await deps.history.restore(input.sessionId, state.conversation);
            if (input.replaceLast) await replaceLastExchange(input.sessionId, state);
            const commandReply = await handleSlashCommand(
              text,
              { sessionId: input.sessionId, conversation: state.conversation },
              deps,
            );
            let result: TurnResult;
            if (commandReply !== undefined) {
              if (input.onText) await input.onText(commandReply);
              result = {
                reply: commandReply,
                sessionId: input.sessionId,
                provider: 'hearth',
                model: 'command',
                usage: { inputTokens: 0, outputTokens: 0 },
                qualityScore: 1,
                finishReason: 'stop',
                toolSteps: 0,
                command: text.split(/\s/)[0],
              };
            } else {
              const ledger = createProvenanceLedger();
              result = await modelTurn({ ...input, message: text }, state, ledger);
              afterReply({ ...input, message: text }, state, result, ledger);
            }
            state.messageCount += 1;
            state.lastActive = deps.now();
            deps.metrics.messagesSentTotal.inc({ channel });
            return result;
          } catch (error) {
            deps.metrics.messagesErrorsTotal.inc({ channel });
            throw error;
          }
        }),
      );
    },

    /** `/compact` and POST /memory/compact for a live session. */
    async compactSession(sessionId: string): Promise<boolean> {
      const state = deps.conversations.peek(sessionId);
      if (!state) return false;
      await deps.history.restore(sessionId, state.conversation);
      return deps.compactor.compact(sessionId, state.conversation);
    },
  };
}

export type ChatPipeline = ReturnType<typeof createChatPipeline>;
