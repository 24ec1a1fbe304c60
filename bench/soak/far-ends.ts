/**
 * The soak's far ends, all in this process on 127.0.0.1: the fake LLM (OpenAI-compatible), the
 * fake Telegram Bot API and the webhook channel's callback server.
 *
 * The fake LLM answers from the request's last message, so concurrent turns of different kinds
 * need no queue:
 * - a tool result: `Tool output: <result>` (the turn's reply shows what the tool returned, or
 *   "Command denied by user approval gate.");
 * - a user message `run: <command>`: a call of the `shell` tool with that command;
 * - a user message `call: <tool> <JSON arguments>`: a call of that tool;
 * - anything else: `ack <token>` for each `soak#<n>` token in the message (how the soak matches
 *   a reply to its message on every path), streamed in several chunks.
 */
import { startCallbackServer } from '../../gateway/src/channels/testing/callback-server.ts';
import { startFakeTelegram } from '../../gateway/src/channels/testing/fake-telegram.ts';
import type { ReplyScript } from '../../gateway/src/testing/fakes/fake-llm/script.ts';
import { createFakeLlmServer } from '../../gateway/src/testing/fakes/fake-llm/server.ts';
import {
  arrayOf,
  bodyOf,
  isObject,
  type RecordedRequest,
} from '../../gateway/src/testing/fakes/fake-llm/wire.ts';

export const TELEGRAM_TOKEN = '4242:soak-bot-token';
export const WEBHOOK_SECRET = 'soak-webhook-signing-secret';

const usage = { inputTokens: 40, outputTokens: 8 };

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  // Content parts: [{type: "text", text}].
  return arrayOf(content)
    .map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : ''))
    .join('');
}

/** What the soak's fake model answers to one request (see the file comment). */
export function soakReply(request: RecordedRequest): ReplyScript {
  const last = arrayOf(bodyOf(request).messages).at(-1);
  const role = isObject(last) && typeof last.role === 'string' ? last.role : '';
  const content = isObject(last) ? textOf(last.content) : '';
  if (role === 'tool') return { text: `Tool output: ${content}`, usage };
  if (role === 'user') {
    const run = /(?:^|\n)run: (.+)$/.exec(content);
    if (run?.[1] !== undefined)
      return { toolCalls: [{ name: 'shell', arguments: { command: run[1] } }], usage };
    const call = /(?:^|\n)call: (\S+) (\{.*\})$/s.exec(content);
    if (call?.[1] !== undefined && call[2] !== undefined) {
      try {
        const args = JSON.parse(call[2]) as Record<string, unknown>;
        return { toolCalls: [{ name: call[1], arguments: args }], usage };
      } catch {
        return { text: 'call: the arguments are not JSON', usage };
      }
    }
  }
  const tokens = content.match(/soak#\d+/g) ?? [];
  const text = tokens.length > 0 ? `ack ${tokens.join(' ')}, noted.` : 'ok, noted.';
  return { text, usage };
}

export async function startFarEnds() {
  const llm = await createFakeLlmServer({ respond: soakReply });
  const telegram = await startFakeTelegram(TELEGRAM_TOKEN);
  const callback = await startCallbackServer(WEBHOOK_SECRET);
  return {
    llm,
    telegram,
    callback,
    /** Forgets what the fake LLM recorded (it keeps every request otherwise). */
    trim(): void {
      llm.requests.length = 0;
    },
    async close(): Promise<void> {
      await Promise.allSettled([llm.close(), telegram.close(), callback.close()]);
    },
  };
}

export type FarEnds = Awaited<ReturnType<typeof startFarEnds>>;
