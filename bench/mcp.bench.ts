/**
 * MCP figures (node bench/mcp.bench.ts). A real gateway in this process (the chat test bed,
 * `[security] security = "full"` so the approval gate decides without a human, as an allowlisted
 * call would) with the test fixture MCP server (the SDK's McpServer) as `[[mcp.servers]]` fx.
 *
 * - `tools/call` round trip through `hearth mcp`: the SDK's client over stdio → the `hearth mcp`
 *   child (the CLI's sources on Node 24) → `POST /api/v1/mcp/tools/current_time/call` on the
 *   gateway → the tool → back; `current_time` is a trivial built-in.
 * - Client-side overhead per external call: the fixture's `echo` called through Hearth (the
 *   registry tool `fx__echo`: approval gate incl. command analysis, the SDK client, result
 *   conversion) minus the same call made by a bare SDK client straight to a second copy of the
 *   fixture, both in this process; and again with the gate off (`require_shell_approval =
 *   false`), which leaves the client's own part.
 *
 * BENCH_RUNS (200) measured calls per figure after 20 warm-up calls. Prints p50/p95/max.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  FIXTURE_STDIO_SERVER,
  CLI_SOURCE,
  FAST_TIMING,
  stdioEntry,
} from '../gateway/src/mcp/testing/mcp-test-bed.ts';
import { startChatTestBed } from '../gateway/src/testing/gateway/chat-gateway.ts';
import { percentile } from './process.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARM_UP = 20;

const bed = await startChatTestBed(undefined, {
  config: { security: { security: 'full' }, mcp: { servers: [stdioEntry('fx')] } },
  mcpTiming: { ...FAST_TIMING, callTimeoutMs: 60_000 },
});
for (;;) {
  if (bed.gw.gateway.tools.get('fx__echo')) break;
  await new Promise((resolve) => setTimeout(resolve, 20));
}

const connect = async (command: string, args: string[], env: Record<string, string>) => {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, env, stderr: 'ignore' }), {
    timeout: 120_000,
  });
  return client;
};
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
const viaHearthMcp = await connect(process.execPath, [CLI_SOURCE, 'mcp'], {
  ...env,
  HEARTH_GATEWAY_URL: bed.gw.url,
});
const direct = await connect(process.execPath, [FIXTURE_STDIO_SERVER], env);
const registryEcho = bed.gw.gateway.tools.get('fx__echo')!;

async function measure(call: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < WARM_UP; i += 1) await call();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    await call();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b);
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;
const summary = (samples: number[]) => ({
  runs: samples.length,
  p50_ms: round(percentile(samples, 50)),
  p95_ms: round(percentile(samples, 95)),
  max_ms: round(samples.at(-1) ?? 0),
});

const roundTrip = await measure(() =>
  viaHearthMcp.callTool({ name: 'current_time', arguments: {} }),
);
const bare = await measure(() => direct.callTool({ name: 'echo', arguments: { text: 'x' } }));
const throughHearth = await measure(() =>
  registryEcho.execute({ sessionId: 'bench', channel: 'bench' }, { text: 'x' }),
);

// The same with the gate switched off (`require_shell_approval = false`): the client's own part.
await fetch(`${bed.gw.url}/api/v1/approvals/policy`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ require_shell_approval: false }),
});
const ungated = await measure(() =>
  registryEcho.execute({ sessionId: 'bench', channel: 'bench' }, { text: 'x' }),
);

const figures = {
  'tools/call round trip through hearth mcp (current_time)': summary(roundTrip),
  'external echo, bare SDK client': summary(bare),
  'external echo through Hearth (gate + client)': summary(throughHearth),
  'external echo through Hearth, gate off': summary(ungated),
  'client-side overhead per external call (p50 difference)': {
    with_gate_ms: round(percentile(throughHearth, 50) - percentile(bare, 50)),
    gate_off_ms: round(percentile(ungated, 50) - percentile(bare, 50)),
  },
};
process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);

await viaHearthMcp.close();
await direct.close();
await bed.close();
