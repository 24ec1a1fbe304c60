/**
 * A hostile MCP server over stdio (a real child process speaking raw JSON-RPC) is bounded: too
 * many tools and the server is refused; a tool with a 197 kB description, a 197 kB parameter
 * description, a 100 kB schema or a 200-level schema is withheld (the others are offered); a
 * 400 MB answer, made as it is sent, is cut at `mcp.max_message_bytes` with the server stopped
 * there and then, the gateway's memory hardly moving. Each is reported in `/mcp/servers` and
 * `/status`, and counted.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatTestBed, type ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { floodStopped, hostileStdioEntry, measure } from '../testing/hostile-bed.ts';
import { FLOOD_BYTES } from '../testing/hostile-tools.ts';
import {
  callTool,
  connected,
  FAST_TIMING,
  send,
  serverStatus,
  toolNames,
  until,
} from '../testing/mcp-test-bed.ts';

const MIB = 1024 * 1024;

describe('a hostile MCP server over stdio', { timeout: 180_000 }, () => {
  let bed: ChatTestBed;
  let dir: string;
  const progress = (name: string) => join(dir, `${name}.progress`);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-hostile-'));
    bed = await startChatTestBed(undefined, {
      config: {
        security: { security: 'full' },
        mcp: {
          servers: [
            hostileStdioEntry('many', progress('many'), ['many:3003']),
            hostileStdioEntry('picked', progress('picked'), ['many:3003'], {
              tools: ['t1', 't2'],
            }),
            hostileStdioEntry('bloat', progress('bloat'), ['bloat']),
            hostileStdioEntry('flood', progress('flood'), ['flood']),
          ],
        },
      },
      mcpTiming: FAST_TIMING,
    });
    await Promise.all(['picked', 'bloat', 'flood'].map((name) => connected(bed, name)));
  }, 180_000);

  afterAll(async () => {
    await bed.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a server with more tools than max_tools_per_server, and says so', async () => {
    const status = await until(
      'many refused',
      () => serverStatus(bed, 'many'),
      (s) => s.state === 'failed',
    );
    expect(status).toMatchObject({
      state: 'failed',
      tool_count: 0,
      tools: [],
      over_limit: 'max_tools_per_server: it offers more than 128 tools',
      last_error: 'over limit: it offers more than 128 tools (mcp.max_tools_per_server)',
    });
    expect((await toolNames(bed)).some((name) => name.startsWith('many__'))).toBe(false);
    const { backends } = (await send(bed, 'GET', '/status')).body as {
      backends: Record<string, string>;
    };
    expect(backends['mcp:many']).toBe(
      'failed, 0 tools; last error: over limit: it offers more than 128 tools (mcp.max_tools_per_server); ' +
        'over limit: max_tools_per_server: it offers more than 128 tools',
    );
    expect(backends.mcp_limits).toMatch(/max_tools_per_server 1\b/);
    // Not restarted: it would offer as many again.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await serverStatus(bed, 'many')).restarts).toBe(0);
  });

  it('counts the tools of the allow-list only', async () => {
    expect(await serverStatus(bed, 'picked')).toMatchObject({
      state: 'connected',
      tools: ['picked__t1', 'picked__t2'],
      over_limit: null,
      withheld: [],
    });
  });

  it('withholds each tool over a description or schema cap, offers the rest, and says why', async () => {
    const status = await serverStatus(bed, 'bloat');
    expect(status.state).toBe('connected');
    expect(status.tools).toEqual(['bloat__ok']);
    expect(status.withheld).toEqual([
      {
        tool: 'long_description',
        reason: 'its description is 197600 characters, over 8192 (mcp.max_description_chars)',
      },
      {
        tool: 'long_parameter',
        reason: 'its description is 197600 characters, over 8192 (mcp.max_description_chars)',
      },
      {
        tool: 'big_schema',
        reason: expect.stringMatching(
          /^its input schema is \d+ bytes, over 16384 \(mcp\.max_schema_bytes\)$/,
        ) as unknown,
      },
      {
        tool: 'deep_schema',
        reason: 'its input schema is nested more than 32 levels deep (mcp.max_schema_depth)',
      },
    ]);
    // What the model and every client are offered stays small.
    const listing = JSON.stringify((await send(bed, 'GET', '/tools')).body);
    expect(listing).not.toContain('Reads the weather. Reads the weather.');
    expect(listing.length).toBeLessThan(64 * 1024);
    bed.fake.reset();
    bed.fake.reply({ text: 'Nothing to do.' });
    // A message the tool is relevant to: a turn offers the installed tools it needs.
    await bed.post('/chat', { message: 'use the ordinary tool', session_id: 'hostile-offer' });
    const offered = JSON.stringify(bed.fake.requests[0]?.body);
    expect(offered).toContain('bloat__ok');
    expect(offered).not.toContain('bloat__long_parameter');
    expect(offered.length).toBeLessThan(128 * 1024);
    const { backends } = (await send(bed, 'GET', '/status')).body as {
      backends: Record<string, string>;
    };
    expect(backends['mcp:bloat']).toMatch(
      /^connected, 1 tool; last error: tools not exposed: .*; 4 withheld$/,
    );
    expect(backends.mcp_limits).toMatch(/max_description_chars 2\b/);
    expect(backends.mcp_limits).toMatch(/max_schema_bytes 1\b/);
    expect(backends.mcp_limits).toMatch(/max_schema_depth 1\b/);
  });

  it('cuts a 400 MB answer at max_message_bytes, stops the server, and hardly grows', async () => {
    const before = await serverStatus(bed, 'flood');
    // Warmed up first: the first requests of a process load code, which is not what is measured.
    await measure(bed.gw.url, () => callTool(bed, 'flood__none'));
    const { result, rssGrowthBytes } = await measure(bed.gw.url, () =>
      callTool(bed, 'flood__flood'),
    );
    expect(result.body).toEqual({
      content:
        'MCP server flood: over limit: a message of more than 4194304 bytes (mcp.max_message_bytes)',
      is_error: true,
    });
    expect(rssGrowthBytes).toBeLessThan(64 * MIB);
    const status = await serverStatus(bed, 'flood');
    expect(status.over_limit).toBe('max_message_bytes: a message of more than 4194304 bytes');
    expect(status.last_error).toBe(
      'over limit: a message of more than 4194304 bytes (mcp.max_message_bytes)',
    );
    // The server was stopped long before it could send it all.
    const written = await until(
      'the flooding server stopped',
      () => floodStopped(progress('flood')),
      (bytes) => bytes !== null,
    );
    expect(written).toBeLessThan(FLOOD_BYTES / 4);
    const { backends } = (await send(bed, 'GET', '/status')).body as {
      backends: Record<string, string>;
    };
    expect(backends.mcp_limits).toMatch(/max_message_bytes 1\b/);
    // Over a cap answering a call, it is restarted with backoff, its tools back.
    const back = await connected(bed, 'flood');
    expect(back.restarts).toBeGreaterThan(before.restarts);
  });
});
