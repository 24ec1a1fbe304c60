/**
 * The dashboard against a real gateway: the fake LLM asks for a shell command, the approval
 * gate holds it, the dashboard shows it, and the a / A / d keys decide it through the gateway's
 * REST API. Each decision is checked where it lands: the command ran (its output reached the
 * model), an `always` allowlist entry was stored, or the agent was told it was denied.
 */
import type { ApiResponse } from '@hearth/client';
import { cleanup, render } from 'ink-testing-library';
import { createElement as h } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  startChatTestBed,
  type ChatTestBed,
} from '../../../gateway/src/testing/gateway/chat-gateway.ts';
import { INSPECTORS } from '../../../gateway/src/testing/fakes/fake-llm/inspect.ts';
import { createGatewayClient } from '../gateway-client.ts';
import { createDashboardCore, type DashboardCore } from './dashboard-core.ts';
import { socketOpener } from './open-socket.ts';
import { DashboardApp } from './ui/dashboard-app.ts';

/** Generous: the machine running the suite may be loaded; every wait ends on what it awaits. */
const WAIT = { timeout: 30_000, interval: 50 };

let bed: ChatTestBed;
let core: DashboardCore;
let app: ReturnType<typeof render>;

beforeAll(async () => {
  bed = await startChatTestBed();
});
afterAll(() => bed.close());

async function mountDashboard() {
  const client = createGatewayClient({ baseUrl: bed.gw.url, timeoutMs: 10_000 });
  core = createDashboardCore({
    client,
    openSocket: socketOpener(client, 10_000),
    clientId: 'dashboard-approvals-test',
    pollMs: 250,
  });
  app = render(
    h(DashboardApp, {
      core,
      color: false,
      onExit: () => {},
      size: { columns: 120, rows: 40 },
    }),
  );
  await core.start();
}

afterEach(() => {
  core.stop();
  cleanup();
  bed.fake.reset();
});

/** Starts a turn whose shell command waits for a decision; resolves once it is pending. */
async function gatedTurn(command: string, sessionId: string) {
  bed.fake.reply(
    { toolCalls: [{ name: 'shell', arguments: { command } }] },
    { text: `finished ${command}` },
  );
  const turn = bed.post('/chat', { message: `please run ${command}`, session_id: sessionId });
  const approval = await vi.waitFor(async () => {
    const { pending } = (await bed.get('/approvals/pending'))
      .body as ApiResponse<'/approvals/pending'>;
    const found = pending.find((p) => p.command === command);
    if (!found) throw new Error(`${command} is not pending yet`);
    return found;
  }, WAIT);
  return { turn, approval };
}

/** The frame, once it shows `text` (the dashboard polls and follows the gateway's events). */
const frameShowing = (text: string) =>
  vi.waitFor(() => {
    const frame = app.lastFrame() ?? '';
    if (!frame.includes(text)) throw new Error(`the dashboard does not show "${text}" yet`);
    return frame;
  }, WAIT);

const toolResults = () => {
  const request = bed.fake.requests.at(-1);
  return request ? INSPECTORS['openai-chat'].toolResults(request).map((r) => r.output) : [];
};

describe('dashboard approval keys against a real pending approval', () => {
  it('a approves the selected approval: the command runs and the turn finishes', async () => {
    await mountDashboard();
    await frameShowing('Approvals (0 pending)');
    const { turn, approval } = await gatedTurn('echo from-dashboard', 'dash-approve');

    const frame = await frameShowing('shell: echo from-dashboard');
    expect(frame).toContain('Approvals (1 pending)');
    expect(frame).toMatch(new RegExp(`> +\\d+s ${approval.id.slice(0, 8)} shell`));

    app.stdin.write('a');
    const reply = await turn;
    expect(reply.body.reply).toBe('finished echo from-dashboard');
    expect(toolResults()).toEqual(['exit code 0\nstdout:\nfrom-dashboard\n']);
    await frameShowing(`Approved ${approval.id.slice(0, 8)}.`);
    await frameShowing('Approvals (0 pending)');
    expect((await bed.get('/approvals/pending')).body.pending).toEqual([]);
  });

  it('A approves and stores an always entry for the program name', async () => {
    await mountDashboard();
    const { turn, approval } = await gatedTurn("sh -c 'uname -s'", 'dash-always');
    await frameShowing("shell: sh -c 'uname -s'");

    app.stdin.write('A');
    expect((await turn).body.reply).toBe("finished sh -c 'uname -s'");
    await frameShowing(
      `Approved ${approval.id.slice(0, 8)}; uname allowed from now on, with any arguments.`,
    );
    await frameShowing('Approvals (0 pending)');
    const { entries } = (await bed.get('/approvals/allowlist'))
      .body as ApiResponse<'/approvals/allowlist'>;
    expect(entries).toEqual([
      expect.objectContaining({ pattern: 'uname', arg_pattern: null, directory: null }),
    ]);
  });

  it('d denies: the command never runs and the agent is told so', async () => {
    await mountDashboard();
    const { turn, approval } = await gatedTurn('touch denied-by-dashboard', 'dash-deny');
    await frameShowing('shell: touch denied-by-dashboard');

    app.stdin.write('d');
    expect((await turn).body.reply).toBe('finished touch denied-by-dashboard');
    expect(toolResults().join('\n')).toContain('Command denied by user approval gate.');
    await frameShowing(`Denied ${approval.id.slice(0, 8)}.`);
    await frameShowing('Approvals (0 pending)');
  });
});
