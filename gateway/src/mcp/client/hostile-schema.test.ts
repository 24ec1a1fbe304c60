/**
 * A tool's JSON Schema is a third party's: an external server's schema cannot stall the gateway.
 * A real MCP server (a child process) offers a `pattern` of `^(a|a)+$` (exponential on a
 * backtracking engine: 4.6 s for 29 characters), `uniqueItems` over objects (quadratic: 6.3 s
 * for 20,000), the same in an output schema it answers 20,000 objects against, and a pattern no
 * linear-time engine runs. Calls go through the real HTTP interface; `/health` is asked all the
 * while and must answer within 100 ms every time (the best of up to ten tries: a stall the schema
 * causes comes every time, a busy machine's scheduling delay does not).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatTestBed, type ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { hostileStdioEntry, measureCalm } from '../testing/hostile-bed.ts';
import { UNIQUE_OUT_ITEMS } from '../testing/hostile-tools.ts';
import {
  callTool,
  connected,
  FAST_TIMING,
  send,
  serverStatus,
  toolNames,
} from '../testing/mcp-test-bed.ts';

const HEALTH_MS = 100;

describe('hostile tool schemas from a real MCP server', { timeout: 120_000 }, () => {
  let bed: ChatTestBed;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-schema-'));
    bed = await startChatTestBed(undefined, {
      config: {
        // Auto-approved: what is measured is the gateway, not the approval gate.
        security: { security: 'full' },
        mcp: { servers: [hostileStdioEntry('redos', join(dir, 'progress'), ['redos'])] },
      },
      mcpTiming: FAST_TIMING,
    });
    await connected(bed, 'redos');
  }, 180_000);

  afterAll(async () => {
    await bed.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('checks ^(a|a)+$ against 29 characters at once, /health answering throughout', async () => {
    const evil = await measureCalm(bed.gw.url, HEALTH_MS, () =>
      callTool(bed, 'redos__match', { text: `${'a'.repeat(29)}b` }),
    );
    expect(evil.result.status).toBe(422);
    expect(evil.result.body).toEqual({
      detail: 'arguments: data/text must match pattern "^(a|a)+$"',
    });
    expect(evil.worstHealthMs).toBeLessThan(HEALTH_MS);

    const fine = await callTool(bed, 'redos__match', { text: 'a'.repeat(29) });
    expect(fine.body).toEqual({ content: 'match ran (0 items)', is_error: false });
  });

  it('checks uniqueItems over 20,000 objects in linear time, /health answering throughout', async () => {
    const items = Array.from({ length: 20_000 }, (_, i) => ({ id: i, odd: i % 2 === 1 }));
    const distinct = await measureCalm(bed.gw.url, HEALTH_MS, () =>
      callTool(bed, 'redos__unique', { items }),
    );
    expect(distinct.result.body).toEqual({ content: 'unique ran (20000 items)', is_error: false });
    expect(distinct.worstHealthMs).toBeLessThan(HEALTH_MS);

    // The same object with its members in another order is a repeat.
    const repeated = await measureCalm(bed.gw.url, HEALTH_MS, () =>
      callTool(bed, 'redos__unique', { items: [...items, { odd: true, id: 3 }] }),
    );
    expect(repeated.result.status).toBe(422);
    expect(repeated.result.body.detail).toBe(
      'arguments: data/items must NOT have duplicate items (items ## 3 and 20000 are identical)',
    );
    expect(repeated.worstHealthMs).toBeLessThan(HEALTH_MS);
  });

  it('checks a result of 20,000 objects against its output schema off the event loop', async () => {
    const answered = await measureCalm(bed.gw.url, HEALTH_MS, () =>
      callTool(bed, 'redos__unique_out'),
    );
    expect(answered.result.body).toEqual({
      content: `${UNIQUE_OUT_ITEMS} items`,
      is_error: false,
    });
    expect(answered.worstHealthMs).toBeLessThan(HEALTH_MS);
  });

  it('cuts a check that outlasts schema_check_timeout_ms, refuses the call, and counts it', async () => {
    const limits = async () =>
      ((await send(bed, 'GET', '/status')).body as { backends: Record<string, string> }).backends
        .mcp_limits;
    expect(await limits()).toMatch(/; exceeded: none$/);
    const cut = await measureCalm(bed.gw.url, HEALTH_MS, () =>
      callTool(bed, 'redos__explode', { text: 'boom' }),
    );
    expect(cut.result.status).toBe(422);
    expect(cut.result.body).toEqual({
      detail:
        "arguments not checked, so 'redos__explode' was not called: the schema check took over 2000 ms (mcp.schema_check_timeout_ms)",
    });
    expect(cut.worstHealthMs).toBeLessThan(HEALTH_MS);
    expect(await limits()).toMatch(
      new RegExp(`; exceeded: schema_check_timeout_ms ${cut.attempts}$`),
    );
    // The next check runs on a fresh thread.
    expect((await callTool(bed, 'redos__match', { text: 'aa' })).body.is_error).toBe(false);
  });

  it('refuses at registration a tool whose pattern needs a backtracking engine, saying why', async () => {
    const status = await serverStatus(bed, 'redos');
    expect(status.tools).toEqual([
      'redos__match',
      'redos__unique',
      'redos__unique_out',
      'redos__explode',
    ]);
    expect(status.withheld).toEqual([
      {
        tool: 'lookaround',
        reason: expect.stringMatching(
          /^its input schema: its schema cannot be checked safely: pattern "\^\(\?!admin\)\.\*\$" cannot run in linear time/,
        ) as unknown,
      },
    ]);
    expect(status.last_error).toMatch(/^tools not exposed: lookaround \(its input schema: /);
    expect(await toolNames(bed)).not.toContain('redos__lookaround');
    const call = await callTool(bed, 'redos__lookaround', { text: 'x' });
    expect(call.status).toBe(404);
    const { backends } = (await send(bed, 'GET', '/status')).body as {
      backends: Record<string, string>;
    };
    expect(backends['mcp:redos']).toMatch(
      /^connected, 4 tools; last error: tools not exposed: lookaround .*; 1 withheld$/,
    );
  });
});
