/**
 * `hearth mcp` (the CLI's stdio MCP server) against a real gateway, spoken to by the SDK's real
 * client and in raw JSON-RPC: handshake, tools/list, tools/call, ping, notifications, gated calls
 * approved and denied in the gateway's approval gate, and the protocol's answers to bad input.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DENIED_TEXT, type PendingApproval } from '../approvals/approval-service.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { VERSION } from '../version.ts';
import { rawStdio, type RawStdio } from './testing/raw-stdio.ts';
import { CLI_SOURCE, send, until } from './testing/mcp-test-bed.ts';

const CLIENT_NAME = 'test-editor';

const initialize = (id: number, protocolVersion: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });

describe('hearth mcp: Hearth’s tools as a stdio MCP server', { timeout: 120_000 }, () => {
  let bed: ChatTestBed;
  let home: string;
  let client: Client;
  let raw: RawStdio;
  let env: Record<string, string>;

  const waitForPending = (command: string): Promise<PendingApproval> =>
    until(
      `${command} pending`,
      async () =>
        ((await send(bed, 'GET', '/approvals/pending')).body.pending as PendingApproval[]).find(
          (approval) => approval.command === command,
        ),
      (found) => found !== undefined,
    ) as Promise<PendingApproval>;

  beforeAll(async () => {
    bed = await startChatTestBed();
    home = await mkdtemp(join(tmpdir(), 'hearth-mcp-cli-'));
    env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HEARTH_HOME: home,
      HEARTH_GATEWAY_URL: bed.gw.url,
    };
    client = new Client({ name: CLIENT_NAME, version: '1.0.0' });
    const connecting = client.connect(
      new StdioClientTransport({ command: process.execPath, args: [CLI_SOURCE, 'mcp'], env }),
      { timeout: 90_000 },
    );
    raw = rawStdio(process.execPath, [CLI_SOURCE, 'mcp'], env);
    raw.write(initialize(1, '2024-11-05'));
    await connecting;
  }, 180_000);

  afterAll(async () => {
    await client.close();
    await raw.close();
    await bed.close();
    await rm(home, { recursive: true, force: true });
  });

  it('answers initialize with its server info and tools capability (SDK client handshake)', () => {
    expect(client.getServerVersion()).toEqual({ name: 'hearth', version: VERSION });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
  });

  it('offers protocol 2024-11-05 to a client that asks for it', async () => {
    const reply = await raw.next();
    expect(reply).toMatchObject({
      id: 1,
      result: { protocolVersion: '2024-11-05', serverInfo: { name: 'hearth' } },
    });
    raw.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  });

  it('lists every registered tool with its JSON schema', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['shell', 'browser', 'current_time']));
    const shell = tools.find((tool) => tool.name === 'shell');
    expect(shell?.inputSchema).toMatchObject({
      type: 'object',
      properties: { command: { type: 'string' } },
      required: ['command'],
    });
  });

  it('calls a tool', async () => {
    const result = await client.callTool({ name: 'current_time', arguments: { timezone: 'UTC' } });
    expect(result.isError).toBe(false);
    expect(JSON.stringify(result.content)).toContain('ISO');
  });

  it('answers ping', async () => {
    await expect(client.ping()).resolves.toEqual({});
  });

  it('ignores a request without id (a notification) and answers the next request', async () => {
    raw.write(JSON.stringify({ jsonrpc: '2.0', method: 'tools/list' }));
    raw.write(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }));
    expect(await raw.next()).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
  });

  it('holds a gated call until it is approved; the approval names the MCP client as session', async () => {
    const call = client.callTool(
      { name: 'shell', arguments: { command: 'echo via-mcp' } },
      undefined,
      {
        timeout: 90_000,
      },
    );
    const pending = await waitForPending('echo via-mcp');
    expect(pending.session_id).toBe(`mcp:${CLIENT_NAME}`);
    expect((await send(bed, 'POST', `/approvals/${pending.id}/approve`, {})).status).toBe(200);
    const result = await call;
    expect(result.isError).toBe(false);
    expect(JSON.stringify(result.content)).toContain('via-mcp');
  });

  it('reports progress every 5 s while a call waits, to a client that asked for it', async () => {
    const progress: { progress: number; message?: string }[] = [];
    const call = client.callTool(
      { name: 'shell', arguments: { command: 'echo slow' } },
      undefined,
      {
        timeout: 90_000,
        onprogress: (update) => progress.push(update),
      },
    );
    const pending = await waitForPending('echo slow');
    await until(
      'a progress notification',
      () => Promise.resolve(progress.length),
      (n) => n > 0,
    );
    expect(progress[0]?.message).toMatch(
      /^shell still running after \d+ s \(it may wait for approval\)$/,
    );
    await send(bed, 'POST', `/approvals/${pending.id}/approve`, {});
    expect((await call).isError).toBe(false);
  });

  it('returns a denied call as a tool error with the gate’s text', async () => {
    const call = client.callTool(
      { name: 'shell', arguments: { command: 'touch denied' } },
      undefined,
      {
        timeout: 90_000,
      },
    );
    const pending = await waitForPending('touch denied');
    await send(bed, 'POST', `/approvals/${pending.id}/deny`, {});
    const result = await call;
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: DENIED_TEXT }] });
    expect(DENIED_TEXT).toBe('Command denied by user approval gate.');
  });

  describe('bad input gets the protocol’s error responses, and the server stays up', () => {
    const errorOf = async (line: string) => {
      raw.write(line);
      return (await raw.next()) as { id: unknown; error?: { code: number; message: string } };
    };

    it('malformed JSON: -32700 Parse error', async () => {
      expect(await errorOf('{"jsonrpc": "2.0", "id": 3, "method": ')).toMatchObject({
        id: null,
        error: { code: ErrorCode.ParseError },
      });
    });

    it('JSON that is no JSON-RPC message: -32600 Invalid Request (with its id)', async () => {
      expect(await errorOf('{"jsonrpc":"2.0","id":5}')).toMatchObject({
        id: 5,
        error: { code: ErrorCode.InvalidRequest },
      });
      expect(await errorOf('[1,2,3]')).toMatchObject({ error: { code: ErrorCode.InvalidRequest } });
    });

    it('an unknown method: -32601 Method not found', async () => {
      expect(await errorOf('{"jsonrpc":"2.0","id":8,"method":"tools/explode"}')).toMatchObject({
        id: 8,
        error: { code: ErrorCode.MethodNotFound },
      });
    });

    it('an unknown tool: -32602 Invalid params', async () => {
      const reply = await errorOf(
        '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}',
      );
      expect(reply).toMatchObject({ id: 9, error: { code: ErrorCode.InvalidParams } });
      expect(reply.error?.message).toContain('Unknown tool: no_such_tool');
    });

    it('arguments of the wrong type: -32602 Invalid params naming the problem', async () => {
      const reply = await errorOf(
        '{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"current_time","arguments":{"timezone":5}}}',
      );
      expect(reply).toMatchObject({ id: 10, error: { code: ErrorCode.InvalidParams } });
      expect(reply.error?.message).toMatch(/timezone.*string|string.*timezone/);
    });

    it('a tool name the gateway cannot take (a path) is an unknown tool, not a traversal', async () => {
      const call = client.callTool({ name: '../../status', arguments: {} });
      await expect(call).rejects.toBeInstanceOf(McpError);
      await expect(call).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    });

    it('an oversized message: -32600, and the next request is answered', async () => {
      const huge = `{"jsonrpc":"2.0","id":11,"method":"ping","params":{"pad":"${'x'.repeat(5 * 1024 * 1024)}"}}`;
      expect(await errorOf(huge)).toMatchObject({
        id: null,
        error: { code: ErrorCode.InvalidRequest },
      });
      expect(await errorOf('{"jsonrpc":"2.0","id":12,"method":"ping"}')).toEqual({
        jsonrpc: '2.0',
        id: 12,
        result: {},
      });
    });
  });

  it('a client that stops reading does not hold up the gateway', async () => {
    const silent = rawStdio(process.execPath, [CLI_SOURCE, 'mcp'], env);
    try {
      silent.child.stdout.pause();
      silent.write(initialize(1, '2024-11-05'));
      for (let id = 2; id < 400; id += 1)
        silent.write(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' }));
      const started = Date.now();
      await until(
        'the child asked the gateway',
        async () => (await send(bed, 'GET', '/status')).status,
        (status) => status === 200 && Date.now() - started > 2_000,
      );
      expect((await send(bed, 'GET', '/tools')).status).toBe(200);
    } finally {
      await silent.close();
    }
  });
});
