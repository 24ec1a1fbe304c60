/**
 * The fake LLM as a process, for the container stack's test override
 * (docker-compose.offline.yml, infra/images/fake-llm): serves every wire format of
 * `createFakeLlmServer`, so the stack runs real chat turns where no model can be had.
 *
 * What it answers, from the request's last message (Ollama and OpenAI-style `messages`):
 * - a user message `run: <command>`: a call of the `shell` tool with that command;
 * - a user message `call: <tool> <JSON arguments>`: a call of that tool with those arguments;
 * - a tool result: `Tool output: <result>`, so the test sees what the tool returned;
 * - anything else: the `--reply` text.
 *
 *   node gateway/src/testing/fakes/fake-llm/main.ts --host 0.0.0.0 --port 11434 --reply "hello" \
 *     --model llama3.2
 */
import { parseArgs } from 'node:util';
import type { ReplyScript } from './script.ts';
import { createFakeLlmServer } from './server.ts';
import { arrayOf, bodyOf, isObject, type RecordedRequest } from './wire.ts';

const { values } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '11434' },
    reply: { type: 'string', default: 'Hello from the fake model.' },
    model: { type: 'string', multiple: true, default: [] },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  process.stderr.write(`fake-llm: --port must be 0–65535, got ${values.port}\n`);
  process.exit(2);
}

const usage = { inputTokens: 12, outputTokens: 5 };

function lastMessage(request: RecordedRequest): { role: string; content: string } | undefined {
  const last = arrayOf(bodyOf(request).messages).at(-1);
  if (!isObject(last) || typeof last.role !== 'string') return undefined;
  return { role: last.role, content: typeof last.content === 'string' ? last.content : '' };
}

function respond(request: RecordedRequest): ReplyScript | undefined {
  const last = lastMessage(request);
  if (last?.role === 'tool') return { text: `Tool output: ${last.content}`, usage };
  const run = last?.role === 'user' ? /^run: (.+)$/s.exec(last.content) : null;
  if (run?.[1] !== undefined) {
    return { toolCalls: [{ name: 'shell', arguments: { command: run[1] } }], usage };
  }
  const call = last?.role === 'user' ? /^call: (\S+) (\{.*\})$/s.exec(last.content) : null;
  if (call?.[1] !== undefined && call[2] !== undefined) {
    try {
      const args = JSON.parse(call[2]) as Record<string, unknown>;
      return { toolCalls: [{ name: call[1], arguments: args }], usage };
    } catch {
      return { text: `call: the arguments are not JSON`, usage };
    }
  }
  return undefined;
}

const server = await createFakeLlmServer(
  { models: values.model, respond, defaultReply: { text: values.reply, usage } },
  { host: values.host, port },
);
process.stdout.write(`fake-llm listening on ${server.url}\n`);

const stop = () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
