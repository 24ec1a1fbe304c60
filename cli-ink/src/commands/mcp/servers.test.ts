import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAST_TIMING,
  FIXTURE_STDIO_SERVER,
} from '../../../../gateway/src/mcp/testing/mcp-test-bed.ts';
import {
  startTestGateway,
  type TestGateway,
} from '../../../../gateway/src/testing/gateway/test-gateway.ts';
import { createHarness, freePort, type Harness } from '../../testing/cli-harness.ts';

const waitFor = async (check: () => boolean, what: string) => {
  const end = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`${what} never happened`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

describe('hearth mcp servers through a running gateway', { timeout: 120_000 }, () => {
  let h: Harness;
  let t: TestGateway;

  beforeAll(async () => {
    t = await startTestGateway({ mcpTiming: FAST_TIMING });
    await t.gateway.whenReady();
    h = await createHarness();
    await writeFile(join(h.home, 'config.toml'), `[gateway]\nport = ${t.port}\n`);
  }, 60_000);
  afterAll(async () => {
    await h.cleanup();
    await t.close();
  });

  it('add, list, disable, enable and remove go through the REST API', async () => {
    const added = await h.run([
      'mcp',
      'servers',
      'add',
      'fx',
      '--env',
      'MODE=cli',
      '--tools',
      'echo,add',
      '--',
      process.execPath,
      FIXTURE_STDIO_SERVER,
    ]);
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^fx\s+stdio/);
    await waitFor(() => t.gateway.tools.get('fx__echo') !== undefined, 'fx__echo registered');
    expect(t.gateway.tools.get('fx__env')).toBeUndefined();
    // Written by the gateway, into the gateway's config.toml.
    expect(await readFile(join(t.home, 'config.toml'), 'utf8')).toContain('MODE = "cli"');

    const listed = await h.run(['mcp', 'servers', 'list']);
    expect(listed.stdout).toMatch(/^fx\s+stdio\s+connected\s+2 tools\n$/);
    const json = JSON.parse((await h.run(['mcp', 'servers', 'list', '--json'])).stdout) as {
      name: string;
      tools: string[];
    }[];
    expect(json[0]).toMatchObject({ name: 'fx', tools: ['fx__echo', 'fx__add'] });

    expect((await h.run(['mcp', 'servers', 'disable', 'fx'])).stdout).toMatch(/disabled/);
    expect(t.gateway.tools.get('fx__echo')).toBeUndefined();
    expect((await h.run(['mcp', 'servers', 'enable', 'fx'])).code).toBe(0);
    await waitFor(() => t.gateway.tools.get('fx__echo') !== undefined, 'fx__echo back');

    expect(await h.run(['mcp', 'servers', 'remove', 'fx'])).toEqual({
      code: 0,
      stdout: 'Removed fx.\n',
      stderr: '',
    });
    expect(t.gateway.tools.get('fx__echo')).toBeUndefined();
    expect((await h.run(['mcp', 'servers', 'list'])).stdout).toBe('No MCP servers.\n');
  });

  it('reports the gateway’s refusals with exit code 1', async () => {
    expect(await h.run(['mcp', 'servers', 'remove', 'nope'])).toEqual({
      code: 1,
      stdout: '',
      stderr: "hearth: No MCP server named 'nope'\n",
    });
    const bad = await h.run(['mcp', 'servers', 'add', 'bad__name', '--', 'x']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^hearth: body\.name: must be/);
  });

  it('usage errors exit with 2', async () => {
    expect(await h.run(['mcp', 'servers', 'add', 'x'])).toMatchObject({
      code: 2,
      stderr: 'hearth: give either a command (stdio) or --url (Streamable HTTP), not both\n',
    });
    expect((await h.run(['mcp', 'servers', 'add', 'x', '--env', 'NOVALUE', '--', 'y'])).code).toBe(
      2,
    );
    expect((await h.run(['mcp', 'servers', 'frobnicate'])).code).toBe(2);
  });
});

describe('hearth mcp servers without a running gateway', () => {
  it('says that the gateway manages them, exit 1', async () => {
    const h = await createHarness();
    try {
      await writeFile(join(h.home, 'config.toml'), `[gateway]\nport = ${await freePort()}\n`);
      const result = await h.run(['mcp', 'servers', 'list']);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /no gateway answering .*MCP servers are managed by the running gateway/,
      );
    } finally {
      await h.cleanup();
    }
  });
});
