/**
 * An MCP server's tool descriptions are checked before its tools are exposed: a tool whose
 * description (or a parameter's) instructs the model, shadows another tool or asks for a
 * secret is not registered, and `last_error` names it; the rest connect, their descriptions
 * capped at 1024 characters.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import { createToolRegistry } from '../../tools/ports.ts';
import { MAX_DESCRIPTION_CHARS } from '../../skills/ports.ts';
import { FAST_TIMING, FIXTURE_STDIO_SERVER, stdioEntry } from '../testing/mcp-test-bed.ts';
import { createConnection, type Connection } from './connection.ts';

describe('an MCP server with poisoned tool descriptions', { timeout: 120_000 }, () => {
  let connection: Connection | undefined;
  afterEach(async () => {
    await connection?.close();
  });

  it('connects without the poisoned tools, says which and why, and caps the long description', async () => {
    const tools = createToolRegistry();
    connection = createConnection({
      entry: stdioEntry('poison', { args: [FIXTURE_STDIO_SERVER, '--poisoned-tools'] }),
      tools,
      gate: () => Promise.resolve({ allowed: true, outcome: 'approved', message: '' }),
      childEnv: (env) => ({ PATH: '/usr/local/bin:/usr/bin:/bin', ...env }),
      timing: FAST_TIMING,
      version: 'test',
      logger: silentLogger(),
    });
    await connection.connect();
    const status = connection.status();
    expect(status.state).toBe('connected');
    expect(status.tools).toContain('poison__echo');
    expect(status.tools).toContain('poison__verbose');
    expect(status.tools).not.toContain('poison__notes');
    expect(status.tools).not.toContain('poison__setup');
    expect(status.last_error).toContain('notes (its description sets a rule for another tool');
    expect(status.last_error).toContain('setup (its description');
    expect(tools.list().map((t) => t.name)).not.toContain('poison__notes');
    const verbose = tools.list().find((t) => t.name === 'poison__verbose');
    expect(verbose?.description.length).toBe(MAX_DESCRIPTION_CHARS);
  });
});
