/**
 * A hostile MCP server over Streamable HTTP (a real HTTP server in a child process, speaking the
 * protocol by hand) is bounded: a 400 MB answer, made as it is sent — as JSON, as one SSE event,
 * or announced by its Content-Length — is counted as it arrives and cut at
 * `mcp.max_message_bytes`, the connection closed under the server, the gateway's memory hardly
 * moving; a server with too many tools is refused. Each is reported and counted.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatTestBed, type ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import {
  floodStopped,
  measure,
  startHostileHttpServer,
  type HostileHttpServer,
} from '../testing/hostile-bed.ts';
import { FLOOD_BYTES } from '../testing/hostile-tools.ts';
import {
  callTool,
  connected,
  FAST_TIMING,
  send,
  serverStatus,
  until,
} from '../testing/mcp-test-bed.ts';

const MIB = 1024 * 1024;

describe('a hostile MCP server over Streamable HTTP', { timeout: 180_000 }, () => {
  let bed: ChatTestBed;
  let server: HostileHttpServer;
  let dir: string;
  let progress: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-hostile-http-'));
    progress = join(dir, 'progress');
    server = await startHostileHttpServer(progress);
    bed = await startChatTestBed(undefined, {
      config: {
        security: { security: 'full' },
        mcp: {
          servers: [server.entry('web', ['flood']), server.entry('crowd', ['many:3003'])],
        },
      },
      mcpTiming: FAST_TIMING,
    });
    await connected(bed, 'web');
    // Warmed up: the first requests of a process load code, which is not what is measured.
    await measure(bed.gw.url, () => send(bed, 'GET', '/mcp/servers'));
  }, 180_000);

  afterAll(async () => {
    await bed.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  const floods: [string, string][] = [
    ['flood', 'an answer of more than 4194304 bytes'],
    ['flood_sse', 'an event of more than 4194304 bytes'],
    // Its Content-Length: the 400 MB and the JSON-RPC frame around them.
    ['flood_declared', 'an answer of 4194\\d{5} bytes, over 4194304'],
  ];

  for (const [tool, detail] of floods) {
    it(`cuts a 400 MB answer (${tool}) as it arrives, closes the connection, and hardly grows`, async () => {
      const before = await connected(bed, 'web');
      const { result, rssGrowthBytes } = await measure(bed.gw.url, () =>
        callTool(bed, `web__${tool}`),
      );
      const reported = `over limit: ${detail} \\(mcp\\.max_message_bytes\\)`;
      expect(result.body.is_error).toBe(true);
      expect(result.body.content).toMatch(new RegExp(`^MCP server web: ${reported}$`));
      expect(rssGrowthBytes).toBeLessThan(64 * MIB);
      const status = await serverStatus(bed, 'web');
      expect(status.over_limit).toMatch(new RegExp(`^max_message_bytes: ${detail}$`));
      expect(status.last_error).toMatch(new RegExp(`^${reported}$`));
      // The server's connection was closed long before it could send it all.
      const written = await until(
        'the flooding answer cut',
        () => floodStopped(progress),
        (bytes) => bytes !== null,
      );
      expect(written).toBeLessThan(FLOOD_BYTES / 4);
      // Over a cap answering a call, it is restarted with backoff.
      const back = await connected(bed, 'web');
      expect(back.restarts).toBeGreaterThan(before.restarts);
    });
  }

  it('refuses a server with more tools than max_tools_per_server', async () => {
    const status = await until(
      'crowd refused',
      () => serverStatus(bed, 'crowd'),
      (s) => s.state === 'failed',
    );
    expect(status).toMatchObject({
      tool_count: 0,
      over_limit: 'max_tools_per_server: it offers more than 128 tools',
    });
  });

  it('counts each cap exceeded in /status', async () => {
    const { backends } = (await send(bed, 'GET', '/status')).body as {
      backends: Record<string, string>;
    };
    expect(backends.mcp_limits).toBe(
      '128 tools per server, descriptions 8192 characters, schemas 16384 bytes and 32 levels, ' +
        'messages 4194304 bytes, schema checks 2000 ms; exceeded: max_message_bytes 3, max_tools_per_server 1',
    );
  });
});
