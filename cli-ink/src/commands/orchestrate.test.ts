import type { ApiResponse } from '@hearth/client';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '@hearth/gateway';
import {
  startChatTestBed,
  type ChatTestBed,
} from '../../../gateway/src/testing/gateway/chat-gateway.ts';
import { createHarness, freePort, type Harness } from '../testing/cli-harness.ts';

describe('hearth orchestrate without a running gateway', () => {
  let h: Harness;
  let port: number;
  const note = (rest: string) =>
    `note: no gateway answering at http://127.0.0.1:${port}; ${rest}\n`;
  const NOTE =
    'using a local instance: nodes are read and written in the database directly (shared with the gateway).';

  beforeEach(async () => {
    h = await createHarness();
    port = await freePort();
    await writeFile(join(h.home, 'config.toml'), `[gateway]\nport = ${port}\n`);
  });
  afterEach(() => h.cleanup());

  it('add, list, status and remove work on the database directly, with a note', async () => {
    const added = await h.run([
      'orchestrate',
      'add',
      'coder',
      '--model',
      'claude-sonnet-4-5',
      '--priority',
      '3',
      '--keywords',
      'TypeScript, bug',
      '--task-types',
      'code',
    ]);
    expect(added).toEqual({
      code: 0,
      stdout:
        'Added coder  claude-sonnet-4-5 (anthropic)  enabled  priority 3\n' +
        '  task types: code; channels: any; keywords: typescript, bug\n',
      stderr: note(NOTE),
    });
    expect(await h.run(['orchestrate', 'list'])).toEqual({
      code: 0,
      stdout:
        'coder  claude-sonnet-4-5 (anthropic)  enabled  priority 3\n' +
        '  task types: code; channels: any; keywords: typescript, bug\n',
      stderr: note(NOTE),
    });
    // The node is in the store the gateway opens.
    const db = await openDatabase(join(h.home, 'memory.db'));
    try {
      expect(await db.orchestratorNodes.get('coder')).toMatchObject({ priority: 3 });
    } finally {
      await db.close();
    }
    const status = JSON.parse((await h.run(['orchestrate', 'status', '--json'])).stdout) as Record<
      string,
      unknown
    >;
    expect(status).toMatchObject({ healthy: true, router_available: false, nodes_total: 1 });

    expect(await h.run(['orchestrate', 'remove', 'coder'])).toMatchObject({
      code: 0,
      stdout: 'Removed coder (0 namespace memories cleared).\n',
    });
    expect((await h.run(['orchestrate', 'list'])).stdout).toBe('No orchestrator nodes.\n');
  });

  it('route selects a node and returns a placeholder, saying so', async () => {
    await h.run(['orchestrate', 'add', 'general', '--model', 'gpt-4o']);
    const routed = await h.run(['orchestrate', 'route', '--json', 'fix', 'this', 'bug']);
    expect(routed.code).toBe(0);
    expect(routed.stderr).toBe(
      note(
        'using a local instance without a router: the node is selected and a placeholder returned, nothing is generated.',
      ),
    );
    expect(JSON.parse(routed.stdout)).toMatchObject({
      node: 'general',
      model: 'gpt-4o',
      provider: 'openai',
      generated: false,
      usage: null,
      text: expect.stringMatching(/^\[placeholder\] .*no router is available here/),
    });
  });

  it('applies the gateway validation locally: unknown model, bad name, duplicate, unknown node, no match', async () => {
    const bad = await h.run(['orchestrate', 'add', 'x', '--model', 'nope-9000']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/body\.model_override: no provider for model id 'nope-9000'/);
    const badName = await h.run(['orchestrate', 'add', '../x', '--model', 'gpt-4o']);
    expect(badName.code).toBe(1);
    expect(badName.stderr).toMatch(/body\.name: must be 1 to 64 characters/);
    await h.run(['orchestrate', 'add', 'x', '--model', 'gpt-4o', '--task-types', 'code']);
    const twice = await h.run(['orchestrate', 'add', 'x', '--model', 'gpt-4o']);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/an orchestrator node named 'x' already exists/);
    const ghost = await h.run(['orchestrate', 'remove', 'ghost']);
    expect(ghost.code).toBe(1);
    expect(ghost.stderr).toMatch(/No orchestrator node named 'ghost'/);
    const none = await h.run(['orchestrate', 'route', '--task-type', 'chat', 'hi']);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(
      /No orchestrator node matches task type 'chat'.*x takes task types code/,
    );
    const priority = await h.run([
      'orchestrate',
      'add',
      'y',
      '--model',
      'gpt-4o',
      '--priority',
      'high',
    ]);
    expect(priority).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--priority must be an integer/),
    });
  });
});

describe('hearth orchestrate against a running gateway', () => {
  let bed: ChatTestBed;
  let h: Harness;
  let client: string;

  beforeAll(async () => {
    bed = await startChatTestBed();
    h = await createHarness();
    client = join(h.home, 'client.toml');
    await writeFile(client, `[gateway]\nport = ${bed.gw.port}\n`);
  });
  afterAll(async () => {
    await h.cleanup();
    await bed.close();
  });

  /** A REST answer prints no fallback note. */
  async function cli(...args: string[]) {
    const result = await h.run(['-c', client, 'orchestrate', ...args]);
    expect(result.stderr).not.toContain('note:');
    return result;
  }

  it('adds, lists, routes with a real generation, reports status and removes through the REST API', async () => {
    expect(
      (await cli('add', 'coder', '--model', 'gpt-4o', '--keywords', 'bug', '--json')).code,
    ).toBe(0);
    expect(
      ((await bed.get('/orchestrator/nodes')).body as ApiResponse<'/orchestrator/nodes'>).nodes[0]
        ?.name,
    ).toBe('coder');
    expect((await cli('list')).stdout).toContain('coder  gpt-4o (openai)  enabled  priority 0');

    bed.fake.reply({ text: 'Patched the bug.', usage: { inputTokens: 11, outputTokens: 4 } });
    const routed = await cli('route', '--channel', 'cli', 'please fix this bug');
    expect(routed.code).toBe(0);
    expect(routed.stdout).toMatch(
      /^Node coder via gpt-4o \(openai\), score 1 \[bug\]\n\nPatched the bug\.\n\(11 in, 4 out, \$/,
    );

    const status = JSON.parse((await cli('status', '--json')).stdout) as {
      router_available: boolean;
      nodes: { name: string; requests: number; input_tokens: number }[];
    };
    expect(status.router_available).toBe(true);
    expect(status.nodes[0]).toMatchObject({ name: 'coder', requests: 1, input_tokens: 11 });
    expect((await cli('status')).stdout).toContain(
      'coder  enabled  1 requests, 0 errors, 11 in / 4 out tokens',
    );

    const dup = await cli('add', 'coder', '--model', 'gpt-4o');
    expect(dup).toMatchObject({ code: 1, stderr: expect.stringMatching(/already exists/) });

    expect((await cli('remove', 'coder')).stdout).toBe(
      'Removed coder (1 namespace memories cleared).\n',
    );
    expect((await bed.get('/orchestrator/nodes')).body.count).toBe(0);
  });
});
