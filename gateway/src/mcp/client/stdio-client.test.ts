import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSPECTORS } from '../../testing/fakes/fake-llm/inspect.ts';
import { startChatTestBed, type ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import {
  callTool,
  connected,
  FAST_TIMING,
  send,
  serverStatus,
  stdioEntry,
  toolNames,
  until,
} from '../testing/mcp-test-bed.ts';

const PROVIDER_KEY = 'sk-test';
const PROCESS_SECRET = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

describe(
  'an external MCP server over stdio (the SDK McpServer as a child process)',
  { timeout: 120_000 },
  () => {
    let bed: ChatTestBed;

    beforeAll(async () => {
      bed = await startChatTestBed(undefined, {
        // Auto-approved here: the approval gate's own waiting is in gated-call.test.ts.
        config: {
          security: { security: 'full' },
          mcp: {
            // The `huge` fixture tool writes 8 MiB; a lower limit is hit sooner on a loaded machine.
            max_message_bytes: 1024 * 1024,
            servers: [
              stdioEntry('fx', {
                env: {
                  SAFE_VARIABLE: 'visible',
                  OPENAI_API_KEY: PROVIDER_KEY,
                  COPIED_KEY: `prefix-${PROVIDER_KEY}`,
                  GITHUB_TOKEN: PROCESS_SECRET,
                },
              }),
              stdioEntry('only', { tools: ['echo'] }),
              stdioEntry('noisy', { args: [stdioEntry('x').args[0]!, '--garbage-first'] }),
            ],
          },
        },
        processEnv: { PATH: '/usr/local/bin:/usr/bin:/bin', GITHUB_TOKEN: PROCESS_SECRET },
        mcpTiming: FAST_TIMING,
      });
      await Promise.all(['fx', 'only', 'noisy'].map((name) => connected(bed, name)));
    }, 180_000);

    afterAll(async () => {
      await bed.close();
    });

    it('puts its tools in the registry as <server>__<tool>, with their JSON schemas', async () => {
      const { tools } = (await send(bed, 'GET', '/tools')).body as {
        tools: { name: string; source: string; parameters: Record<string, unknown> }[];
      };
      const echo = tools.find((tool) => tool.name === 'fx__echo');
      expect(echo?.source).toBe('mcp:fx');
      expect(echo?.parameters).toMatchObject({
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
      });
      expect(tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['fx__add', 'fx__env', 'fx__crash', 'noisy__echo']),
      );
    });

    it('registers only the tools of the allow-list', async () => {
      const status = await serverStatus(bed, 'only');
      expect(status.tools).toEqual(['only__echo']);
      expect(status.tool_count).toBe(1);
    });

    it('reports connection state and tool count per server in /mcp/servers and /status', async () => {
      const { servers } = (await send(bed, 'GET', '/mcp/servers')).body as {
        servers: { name: string; state: string; tool_count: number; transport: string }[];
      };
      expect(servers.find((s) => s.name === 'fx')).toMatchObject({
        state: 'connected',
        transport: 'stdio',
        tool_count: 10,
      });
      const { backends } = (await send(bed, 'GET', '/status')).body as {
        backends: Record<string, string>;
      };
      expect(backends['mcp:fx']).toBe('connected, 10 tools');
      expect(backends['mcp:only']).toBe('connected, 1 tool');
    });

    it('offers the tools to the model: a chat turn calls one and the result reaches the model', async () => {
      bed.fake.reset();
      bed.fake.reply(
        { toolCalls: [{ name: 'fx__add', arguments: { a: 2, b: 40 } }] },
        { text: 'The sum is 42.' },
      );
      const turn = await bed.post('/chat', { message: 'add 2 and 40', session_id: 'mcp-chat' });
      expect(turn.status).toBe(200);
      expect(turn.body.reply).toBe('The sum is 42.');
      const offered = JSON.stringify(bed.fake.requests[0]?.body);
      expect(offered).toContain('fx__add');
      const results = INSPECTORS['openai-chat'].toolResults(bed.fake.requests[1]!);
      expect(results.map((r) => r.output)).toEqual(['42']);
    });

    it('hands a tool error to the model as an error, and the server stays connected', async () => {
      const result = await callTool(bed, 'fx__fail');
      expect(result.body).toEqual({ content: 'it failed on purpose', is_error: true });
      expect((await serverStatus(bed, 'fx')).state).toBe('connected');
    });

    it('gives the server only its entry’s env, through the sanitiser: no provider key or secret', async () => {
      const result = await callTool(bed, 'fx__env');
      const env = JSON.parse(String(result.body.content)) as Record<string, string>;
      expect(env.SAFE_VARIABLE).toBe('visible');
      expect(env).not.toHaveProperty('OPENAI_API_KEY');
      expect(env).not.toHaveProperty('COPIED_KEY');
      expect(env).not.toHaveProperty('GITHUB_TOKEN');
      const text = JSON.stringify(env);
      expect(text).not.toContain(PROVIDER_KEY);
      expect(text).not.toContain(PROCESS_SECRET);
    });

    it('ignores garbage lines between messages (a server that prints before speaking, or mid-call)', async () => {
      expect((await serverStatus(bed, 'noisy')).state).toBe('connected');
      const result = await callTool(bed, 'noisy__garbage');
      expect(result.body).toEqual({ content: 'after garbage', is_error: false });
      expect((await serverStatus(bed, 'noisy')).state).toBe('connected');
    });

    it('survives a crash: the tools leave the registry, the server is restarted, they come back', async () => {
      const before = await serverStatus(bed, 'fx');
      await callTool(bed, 'fx__crash');
      const down = await until(
        'fx down',
        () => serverStatus(bed, 'fx'),
        (s) => s.state !== 'connected',
      );
      expect(down.last_error).toBe('the server closed the connection');
      expect(down.tool_count).toBe(0);
      expect(await toolNames(bed)).not.toContain('fx__echo');
      const back = await connected(bed, 'fx');
      expect(back.restarts).toBeGreaterThan(before.restarts);
      expect(await toolNames(bed)).toContain('fx__echo');
      expect((await callTool(bed, 'fx__echo', { text: 'again' })).body.content).toBe('echo: again');
    });

    it('times out a tool that never answers, disconnects the server and reports it', async () => {
      const result = await callTool(bed, 'fx__hang');
      expect(result.body.is_error).toBe(true);
      expect(String(result.body.content)).toMatch(/timed out/i);
      const status = await serverStatus(bed, 'fx');
      expect(status.last_error).toMatch(/timed out: hang got no answer within 8000 ms/);
      await connected(bed, 'fx');
    });

    it('disconnects a server that floods, and reports it', async () => {
      const call = callTool(bed, 'fx__flood');
      const status = await until(
        'fx reported flooding',
        () => serverStatus(bed, 'fx'),
        (s) => s.last_error?.startsWith('flooding') === true,
      );
      expect(status.tool_count).toBe(0);
      expect((await call).body.is_error).toBe(true);
      await connected(bed, 'fx');
    });

    it('disconnects a server that sends a line over the size limit, and reports it', async () => {
      const call = callTool(bed, 'fx__huge');
      const status = await until(
        'fx reported the oversized line',
        () => serverStatus(bed, 'fx'),
        (s) => s.over_limit !== null && s.state !== 'connected',
      );
      expect(status.last_error).toBe(
        'over limit: a message of more than 1048576 bytes (mcp.max_message_bytes)',
      );
      expect(status.over_limit).toBe('max_message_bytes: a message of more than 1048576 bytes');
      const result = (await call).body;
      expect(result).toEqual({
        content:
          'MCP server fx: over limit: a message of more than 1048576 bytes (mcp.max_message_bytes)',
        is_error: true,
      });
      await connected(bed, 'fx');
    });

    it('keeps the gateway answering throughout', async () => {
      expect((await send(bed, 'GET', '/status')).status).toBe(200);
    });
  },
);
