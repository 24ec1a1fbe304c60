import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSPECTORS } from '../../testing/fakes/fake-llm/inspect.ts';
import { startChatTestBed, type ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { startFixtureHttpServer, type FixtureHttpServer } from '../testing/fixture-http-server.ts';
import {
  callTool,
  connected,
  FAST_TIMING,
  httpEntry,
  send,
  serverStatus,
  toolNames,
  until,
} from '../testing/mcp-test-bed.ts';

describe('an external MCP server over Streamable HTTP on 127.0.0.1', { timeout: 120_000 }, () => {
  let bed: ChatTestBed;
  let fixture: FixtureHttpServer;

  beforeAll(async () => {
    fixture = await startFixtureHttpServer();
    bed = await startChatTestBed(undefined, {
      config: {
        security: { security: 'full' },
        mcp: { servers: [httpEntry('web', fixture.url, { tools: ['echo', 'add', 'crash'] })] },
      },
      mcpTiming: FAST_TIMING,
    });
    await connected(bed, 'web');
  }, 180_000);

  afterAll(async () => {
    await bed.close();
    await fixture.close();
  });

  it('lists the allowed tools, over the http transport', async () => {
    expect(await serverStatus(bed, 'web')).toMatchObject({
      transport: 'http',
      state: 'connected',
      tools: ['web__echo', 'web__add', 'web__crash'],
    });
  });

  it('a chat turn calls one of its tools', async () => {
    bed.fake.reset();
    bed.fake.reply(
      { toolCalls: [{ name: 'web__echo', arguments: { text: 'over http' } }] },
      { text: 'Echoed.' },
    );
    const turn = await bed.post('/chat', { message: 'echo over http', session_id: 'mcp-http' });
    expect(turn.body.reply).toBe('Echoed.');
    expect(INSPECTORS['openai-chat'].toolResults(bed.fake.requests[1]!)[0]?.output).toBe(
      'echo: over http',
    );
  });

  it('survives the server going away: its tools leave, and come back once it answers again', async () => {
    await fixture.stop();
    const failed = await callTool(bed, 'web__echo', { text: 'anyone?' });
    expect(failed.body.is_error).toBe(true);
    const down = await until(
      'web down',
      () => serverStatus(bed, 'web'),
      (s) => s.tool_count === 0,
    );
    expect(down.last_error).not.toBeNull();
    expect(await toolNames(bed)).not.toContain('web__echo');
    await fixture.start();
    await connected(bed, 'web');
    expect((await callTool(bed, 'web__add', { a: 20, b: 22 })).body).toEqual({
      content: '42',
      is_error: false,
    });
  });

  it('reports it in /status', async () => {
    const { backends } = (await send(bed, 'GET', '/status')).body as {
      backends: Record<string, string>;
    };
    expect(backends['mcp:web']).toMatch(/^connected, 3 tools/);
  });
});
