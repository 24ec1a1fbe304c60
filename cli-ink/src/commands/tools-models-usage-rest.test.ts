/**
 * The spec's `usage`, `models status [--live]` and `tools list`, and its rule that `usage`
 * "first call[s] a running gateway's REST API, and fall[s] back to a local process-own instance
 * if none is reachable (a note is printed)".
 */
import type { ApiResponse } from '@hearth/client';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startChatTestBed,
  type ChatTestBed,
} from '../../../gateway/src/testing/gateway/chat-gateway.ts';
import { createHarness, freePort, type Harness } from '../testing/cli-harness.ts';

type Providers = ApiResponse<'/models'>['providers'];

describe('usage, models status --live and tools list with a running gateway', () => {
  let bed: ChatTestBed;
  let h: Harness;

  beforeAll(async () => {
    bed = await startChatTestBed();
    await bed.gw.gateway.whenReady();
  });
  afterAll(() => bed.close());
  beforeEach(async () => {
    h = await createHarness();
    bed.fake.reset();
    await writeFile(join(h.home, 'config.toml'), `[gateway]\nport = ${bed.gw.port}\n`);
  });
  afterEach(() => h.cleanup());

  it('usage shows the running gateway’s counters, with no fallback note', async () => {
    bed.fake.reply({ text: 'Counted.', usage: { inputTokens: 42, outputTokens: 4 } });
    expect((await bed.post('/chat', { message: 'count me', session_id: 'cli-usage' })).status).toBe(
      200,
    );

    const json = await h.run(['usage', '--json']);
    expect(json).toMatchObject({ code: 0, stderr: '' });
    const report = JSON.parse(json.stdout) as ApiResponse<'/usage'>;
    expect(report).toEqual((await bed.get('/usage')).body);
    expect(report.models['gpt-4o']).toMatchObject({ input_tokens: 42, output_tokens: 4 });

    const table = await h.run(['usage']);
    expect(table).toMatchObject({ code: 0, stderr: '' });
    expect(table.stdout).toMatch(/^model\s+input\s+output\s+cost \(USD\)\n/);
    expect(table.stdout).toMatch(/gpt-4o\s+42\s+4\s/);
  });

  it('tools list shows the tools the running agent can call', async () => {
    const json = await h.run(['tools', 'list', '--json']);
    expect(json).toMatchObject({ code: 0, stderr: '' });
    const tools = JSON.parse(json.stdout) as { name: string; source: string }[];
    expect(tools).toEqual((await bed.get('/tools')).body.tools);
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['shell', 'browser']));

    const table = await h.run(['tools', 'list']);
    expect(table).toMatchObject({ code: 0, stderr: '' });
    expect(table.stdout).toMatch(/^shell\s+builtin\s+\S/m);
  });

  it('models status --live asks the gateway to probe: the local runtime is checked and reachable', async () => {
    const result = await h.run(['models', 'status', '--live', '--json']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const { providers } = JSON.parse(result.stdout) as { providers: Providers };
    expect(providers).toHaveLength(19);
    expect(providers.find((p) => p.provider === 'ollama')).toMatchObject({
      live_checked: true,
      reachable: true,
    });

    // Without --live nothing is probed.
    const plain = JSON.parse((await h.run(['models', 'status', '--json'])).stdout) as {
      providers: Providers;
    };
    expect(plain.providers.every((p) => !p.live_checked)).toBe(true);
  });
});

describe('tools list and models status --live with no gateway', () => {
  let h: Harness;
  let port: number;
  beforeEach(async () => {
    h = await createHarness();
    port = await freePort();
  });
  afterEach(() => h.cleanup());

  it('tools list falls back with a note and shows none', async () => {
    await writeFile(join(h.home, 'config.toml'), `[gateway]\nport = ${port}\n`);
    const result = await h.run(['tools', 'list']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`note: no gateway answering at http://127.0.0.1:${port}`);
    expect(result.stdout).toBe('No tools.\n');
  });

  it('models status --live probes from this process, with a note: a local runtime that is down is unreachable', async () => {
    const down = await freePort();
    await writeFile(
      join(h.home, 'config.toml'),
      `[gateway]\nport = ${port}\n\n[models]\nollama_base_url = "http://127.0.0.1:${down}"\n`,
    );
    const result = await h.run(['models', 'status', '--live', '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`note: no gateway answering at http://127.0.0.1:${port}`);
    const { providers } = JSON.parse(result.stdout) as { providers: Providers };
    expect(providers.find((p) => p.provider === 'ollama')).toMatchObject({
      live_checked: true,
      reachable: false,
    });
  });
});
