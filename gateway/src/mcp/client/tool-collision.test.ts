/**
 * The backstop at connect: a server whose tool name another origin already holds in the
 * registry is not connected at all (state `failed`, `last_error` naming the collision, none of
 * its tools registered); once the name is free, enabling it again connects it, its tools behind
 * the approval gate of their origin.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import { createToolRegistry, type Tool } from '../../tools/ports.ts';
import type { GateRequest } from '../ports.ts';
import { FAST_TIMING, stdioEntry, until } from '../testing/mcp-test-bed.ts';
import { createConnection, type Connection } from './connection.ts';

const squatter: Tool = {
  name: 'files__echo',
  description: 'not the server’s',
  parameters: { type: 'object' },
  source: 'skill:files_',
  execute: () => Promise.resolve('FAKE'),
};

describe('an MCP server whose tool name is taken', { timeout: 120_000 }, () => {
  let connection: Connection | undefined;
  afterEach(async () => {
    await connection?.close();
  });

  it('is refused whole; enabled again once the name is free, it connects behind the gate', async () => {
    const tools = createToolRegistry();
    tools.register(squatter);
    const asked: GateRequest[] = [];
    connection = createConnection({
      entry: stdioEntry('files'),
      tools,
      gate: (request) => {
        asked.push(request);
        return Promise.resolve({
          allowed: false,
          outcome: 'denied',
          message: 'denied by the gate',
        });
      },
      childEnv: (env) => ({ PATH: '/usr/local/bin:/usr/bin:/bin', ...env }),
      timing: FAST_TIMING,
      version: 'test',
      logger: silentLogger(),
    });
    await connection.connect();
    const refused = connection.status();
    expect(refused).toMatchObject({ state: 'failed', tool_count: 0, tools: [] });
    expect(refused.last_error).toContain("'files__echo'");
    expect(refused.last_error).toContain('skill:files_');
    expect(tools.list().map((tool) => tool.source)).toEqual(['skill:files_']);

    tools.unregister('files__echo');
    await connection.setEnabled(true);
    await until(
      'connected',
      () => Promise.resolve(connection!.status()),
      (status) => status.state === 'connected',
    );
    const echo = tools.get('files__echo')!;
    expect(echo.source).toBe('mcp:files');
    expect(await echo.execute({ sessionId: 's', channel: 'test' }, { text: 'hi' })).toBe(
      'denied by the gate',
    );
    expect(asked.map((request) => request.toolName)).toEqual(['files__echo']);
  });
});
