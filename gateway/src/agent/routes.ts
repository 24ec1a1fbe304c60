import { z } from 'zod';
import {
  acceptsEventStream,
  createEventQueue,
  type EventStreamResult,
  type ServerSentEvent,
} from '../http/event-stream.ts';
import { defineRoute, type AnyRoute } from '../http/route.ts';
import { sessionIdSchema } from '../memory/ports.ts';
import { modelIdSchema } from '../providers/ports.ts';
import { noControlChars } from '../http/validation.ts';
import { CANVAS_HINT, extractCanvasData } from './canvas-data.ts';
import type { ConversationStore } from '../sessions/ports.ts';
import type { ChatPipeline, PipelineSettings, TurnInput, TurnResult } from './pipeline.ts';
import type { ToolRegistry } from '../tools/ports.ts';

export interface ChatRouteDeps {
  pipeline: () => ChatPipeline;
  tools: ToolRegistry;
  conversations: ConversationStore;
  /**
   * Clears a session on every gateway sharing `[memory] cache_url` (memory and sockets); true
   * when it was in memory on this one.
   */
  clearSession: (sessionId: string) => Promise<boolean>;
  pipelineSettings: PipelineSettings;
}

const chatRequest = z.object({
  message: z.string({ error: 'is required' }),
  session_id: sessionIdSchema.default('default'),
  system_prompt: z.string().max(32_000).optional(),
  stream: z.boolean().default(false),
  model: modelIdSchema.optional(),
  channel: z.string().min(1).max(64).check(noControlChars).default('api'),
});

/** The union of form A and form B responses. */
const chatResponse = z.object({
  reply: z.string(),
  response: z.string(),
  session_id: z.string(),
  tokens_in: z.number().int(),
  tokens_out: z.number().int(),
  tokens: z.object({ input: z.number().int(), output: z.number().int() }),
  provider: z.string(),
  model: z.string(),
  model_used: z.string(),
  quality_score: z.number().min(0).max(1),
  /** Pages the provider's web search cited ([models] web_search_enabled); absent when none. */
  sources: z.array(z.object({ url: z.string(), title: z.string().optional() })).optional(),
});

function toResponse(result: TurnResult): z.input<typeof chatResponse> {
  return {
    reply: result.reply,
    response: result.reply,
    session_id: result.sessionId,
    tokens_in: result.usage.inputTokens,
    tokens_out: result.usage.outputTokens,
    tokens: { input: result.usage.inputTokens, output: result.usage.outputTokens },
    provider: result.provider,
    model: result.model,
    model_used: result.model,
    quality_score: result.qualityScore,
    ...(result.sources ? { sources: result.sources } : {}),
  };
}

/**
 * `stream: true` over REST to a client that accepts `text/event-stream`: server-sent events
 * `message_chunk` {text, delta}, then `message_done`.
 */
function streamTurn(pipeline: ChatPipeline, input: TurnInput): EventStreamResult {
  const queue = createEventQueue<ServerSentEvent>();
  const abort = new AbortController();
  pipeline
    .runTurn({
      ...input,
      signal: abort.signal,
      onText: (delta) =>
        queue.push({ event: 'message_chunk', data: { type: 'message_chunk', text: delta, delta } }),
    })
    .then(
      (result) => {
        queue.push({
          event: 'message_done',
          data: { type: 'message_done', text: result.reply, ...toResponse(result) },
        });
        queue.end();
      },
      (error: unknown) => queue.fail(error),
    );
  return { kind: 'event-stream', events: queue, cancel: () => abort.abort() };
}

export function chatRoutes(deps: ChatRouteDeps): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/chat',
      summary:
        'One chat turn (form A or B). Streaming is on the WebSocket; with stream: true and Accept: text/event-stream the answer is server-sent events (message_chunk, then message_done), otherwise JSON',
      tags: ['chat'],
      body: chatRequest,
      response: chatResponse,
      handler: async ({ body, headers }) => {
        const input: TurnInput = {
          sessionId: body.session_id,
          message: body.message,
          channel: body.channel,
          systemPrompt: body.system_prompt,
          model: body.model,
        };
        // The spec delivers streaming over WebSocket; over REST a stream needs a client that
        // can read one, so it is sent only to a client that names text/event-stream.
        if (body.stream && acceptsEventStream(headers.accept))
          return streamTurn(deps.pipeline(), input) as never;
        return toResponse(await deps.pipeline().runTurn(input));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/chat/canvas',
      summary:
        'A chat turn whose reply carries canvas_data {type, labels, values} when the model produced chart data',
      tags: ['chat'],
      body: z.object({
        message: z.string({ error: 'is required' }),
        session_id: sessionIdSchema.default('default'),
      }),
      response: z.object({
        reply: z.string(),
        session_id: z.string(),
        canvas_data: z
          .object({ type: z.string(), labels: z.array(z.string()), values: z.array(z.number()) })
          .optional(),
      }),
      handler: async ({ body }) => {
        const result = await deps.pipeline().runTurn({
          sessionId: body.session_id,
          message: body.message,
          channel: 'canvas',
          systemSuffix: CANVAS_HINT,
        });
        const canvas = extractCanvasData(result.reply);
        return {
          reply: result.reply,
          session_id: result.sessionId,
          ...(canvas ? { canvas_data: canvas } : {}),
        };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/sessions/{session_id}',
      summary:
        'Remove a session: its stored conversation history (and with it what that history was made from) and, on every gateway, the live session and its sockets (its memories stay); cleared is false for an unknown id',
      tags: ['chat'],
      params: z.object({ session_id: sessionIdSchema }),
      response: z.object({ cleared: z.boolean() }),
      handler: async ({ params }) => ({ cleared: await deps.clearSession(params.session_id) }),
    }),
    defineRoute({
      method: 'get',
      path: '/tools',
      summary: 'The tools the agent can call (built-in, skills, plugins, hub packages)',
      tags: ['chat'],
      response: z.object({
        tools: z.array(
          z.object({
            name: z.string(),
            description: z.string(),
            source: z.string(),
            parameters: z.record(z.string(), z.unknown()),
          }),
        ),
      }),
      handler: () => ({
        tools: deps.tools.list().map(({ name, description, source, parameters }) => ({
          name,
          description,
          source,
          parameters,
        })),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/settings/pipeline',
      summary: 'Set max_tool_steps (1 to 20) for the tool loop; runtime-only',
      tags: ['settings'],
      body: z.strictObject({
        max_tool_steps: z.number().int().min(1, 'must be 1 to 20').max(20, 'must be 1 to 20'),
      }),
      response: z.object({
        applied: z.literal(true),
        updated_fields: z.array(z.string()),
        settings: z.object({ max_tool_steps: z.number().int() }),
      }),
      handler: ({ body }) => {
        deps.pipelineSettings.maxToolSteps = body.max_tool_steps;
        return {
          applied: true as const,
          updated_fields: ['max_tool_steps'],
          settings: { max_tool_steps: deps.pipelineSettings.maxToolSteps },
        };
      },
    }),
  ];
}
