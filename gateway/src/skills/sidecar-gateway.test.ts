/**
 * A real gateway with `[security] executor = "sandbox"` and a real sandbox-executor process:
 * skills are hosted in the sidecar, their tools answer in a chat turn, a skill's `shell()`
 * comes back to the gateway's own approval gate (and then runs through the sidecar's /exec),
 * and the sidecar going away is a tool error and a line in /status, never a gateway failure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../approvals/approval-service.ts';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import type { RecordedRequest } from '../testing/fakes/fake-llm/wire.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { startSidecarProcess, type SidecarProcess } from './host/testing/sidecar-process.ts';

type Json = Record<string, unknown>;

const WEATHER = [
  "import { shell } from 'hearth:skill';",
  '',
  "export const capabilities = ['shell'];",
  '',
  '/**',
  ' * Says the weather.',
  ' * @param {string} city',
  ' */',
  'export function weather(city) {',
  '  return `${city}: sunny (pid ${process.pid})`;',
  '}',
  '',
  '/**',
  ' * Runs a command for the user.',
  ' * @param {string} command',
  ' */',
  'export async function run(command) {',
  '  return `the skill saw: ${await shell(command)}`;',
  '}',
  '',
].join('\n');

const toolResults = (request: RecordedRequest | undefined): string[] =>
  request ? INSPECTORS['openai-chat'].toolResults(request).map((r) => r.output) : [];
const calls = (tool: string, args: Json) => ({ toolCalls: [{ name: tool, arguments: args }] });

describe('a gateway with executor = "sandbox" hosts skills in the sidecar', () => {
  let sidecar: SidecarProcess;
  let bed: ChatTestBed;

  beforeAll(async () => {
    sidecar = await startSidecarProcess();
    bed = await startChatTestBed(undefined, {
      processEnv: { PATH: '/usr/local/bin:/usr/bin:/bin' },
      config: {
        security: { executor: 'sandbox', sandbox_url: sidecar.url, sandbox_token: sidecar.token },
      },
    });
  }, 60_000);
  afterAll(async () => {
    await bed?.close();
    await sidecar?.stop();
  });

  const status = async () =>
    ((await bed.get('/status')).body as { backends: Record<string, string> }).backends.skills;

  it('a written skill answers a chat turn from the sidecar; /status names the isolation', async () => {
    const written = await bed.post('/skills', { name: 'weather', code: WEATHER });
    expect(written.status).toBe(201);
    expect(written.body).toMatchObject({
      state: 'active',
      tools: ['weather_weather', 'weather_run'],
    });
    bed.fake.reply(calls('weather_weather', { city: 'Oslo' }), { text: 'done' });
    expect((await bed.post('/chat', { message: 'weather?', session_id: 'sbx' })).status).toBe(200);
    const [answer] = toolResults(bed.fake.requests[1]);
    expect(answer).toMatch(/^Oslo: sunny \(pid \d+\)$/);
    // Not this process, and not a child of it: the sidecar started the host.
    expect(sidecar.log()).toContain('"skill":"weather"');
    expect(await status()).toBe(
      'sandbox sidecar (process, wall: bubblewrap); 1 skill host running',
    );
    bed.fake.reset();
  });

  it('a skill’s shell() comes back to the gateway’s gate: pending names the skill, approve runs it', async () => {
    bed.fake.reply(calls('weather_run', { command: 'echo via-sidecar' }), { text: 'done' });
    const turn = bed.post('/chat', { message: 'run it', session_id: 'sbx-shell' });
    let waiting: PendingApproval | undefined;
    const until = Date.now() + 20_000;
    while (!waiting && Date.now() < until) {
      const { pending } = (await bed.get('/approvals/pending')).body as {
        pending: PendingApproval[];
      };
      waiting = pending.find((p) => p.command === 'echo via-sidecar');
      if (!waiting) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(waiting).toMatchObject({ tool_name: 'shell (skill weather)', session_id: 'sbx-shell' });
    await bed.post(`/approvals/${waiting!.id}/approve`, {});
    expect((await turn).status).toBe(200);
    expect(toolResults(bed.fake.requests[1])).toEqual([
      'the skill saw: exit code 0\nstdout:\nvia-sidecar\n',
    ]);
    bed.fake.reset();
  });

  it('the sidecar gone: the call is a tool error, /status says unreachable, the gateway stays up', async () => {
    await sidecar.stop();
    bed.fake.reply(calls('weather_weather', { city: 'Rome' }), { text: 'still here' });
    const turn = await bed.post('/chat', { message: 'weather?', session_id: 'sbx-down' });
    expect(turn.status).toBe(200);
    expect(turn.body).toMatchObject({ response: 'still here' });
    const [answer] = toolResults(bed.fake.requests[1]);
    expect(answer).toMatch(/sandbox sidecar is unreachable|skill host stopped/);
    await expect.poll(status, { timeout: 10_000 }).toMatch(/^sandbox sidecar \(unreachable: /);
    expect((await fetch(`${bed.gw.url}/health`)).status).toBe(200);
  });
});
