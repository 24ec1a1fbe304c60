import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  startChatTestBed,
  type ChatTestBed,
} from '../../../../gateway/src/testing/gateway/chat-gateway.ts';
import { createHarness, freePort, type Harness } from '../../testing/cli-harness.ts';

const GREET = '/** Greets. */\nexport function greet(who) {\n  return `hi ${who}`;\n}\n';
const BLOCKED = "export function a() {}\nimport cp from 'node:child_process';\n";
const PLUGIN =
  'class Plugin {}\n/** Says the weather. */\nexport function forecast() {\n  return "sunny";\n}\nexport default class Weather extends Plugin {}\n';

describe('hearth skills validate (no gateway needed)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
    await writeFile(join(h.home, 'config.toml'), `[gateway]\nport = ${await freePort()}\n`);
  });
  afterAll(() => h.cleanup());

  it('accepts a valid module and lists its tools', async () => {
    await writeFile(join(h.home, 'good.mjs'), GREET);
    expect(await h.run(['skills', 'validate', join(h.home, 'good.mjs')])).toEqual({
      code: 0,
      stdout: `${join(h.home, 'good.mjs')} is valid; tools: greet\n`,
      stderr: '',
    });
  });

  it('rejects a blocked import naming the construct and the line, exit 1', async () => {
    await writeFile(join(h.home, 'bad.mjs'), BLOCKED);
    const result = await h.run(['skills', 'validate', join(h.home, 'bad.mjs')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/line 2: .*child_process/);
  });

  it('a command that needs the gateway says none answers', async () => {
    const result = await h.run(['skills', 'list']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no gateway answering.*hearth start/);
  });
});

describe('hearth skills and plugins against a running gateway', () => {
  let bed: ChatTestBed;
  let h: Harness;
  let client: string;
  const cli = (...args: string[]) => h.run(['-c', client, ...args]);

  beforeAll(async () => {
    bed = await startChatTestBed();
    h = await createHarness();
    client = join(h.home, 'client.toml');
    await writeFile(client, `[gateway]\nport = ${bed.gw.port}\n`);
    await writeFile(join(h.home, 'greet.mjs'), GREET);
    await writeFile(join(h.home, 'bad.mjs'), BLOCKED);
    await writeFile(join(h.home, 'weather.mjs'), PLUGIN);
  }, 30_000);
  afterAll(async () => {
    await h.cleanup();
    await bed?.close();
  });
  afterEach(() => bed.fake.reset());

  it('write, list, show, quarantine, write again, delete', async () => {
    const file = join(h.home, 'greet.mjs');
    expect(await cli('skills', 'write', 'hello', '--file', file)).toEqual({
      code: 0,
      stdout: 'Wrote hello  active  hello_greet\n',
      stderr: '',
    });
    expect((await cli('skills', 'list')).stdout).toBe('hello  active  hello_greet\n');
    const shown = await cli('skills', 'show', 'hello');
    expect(shown.stdout).toContain('origin trusted');
    expect(shown.stdout).toContain('export function greet(who)');

    expect(await cli('skills', 'quarantine', 'hello')).toMatchObject({
      code: 0,
      stdout: 'Quarantined hello: unloaded, file kept.\n',
    });
    expect((await cli('skills', 'list')).stdout).toBe('hello  quarantined  (no tools)\n');
    expect((await cli('skills', 'write', 'hello', '--file', file)).stdout).toBe(
      'Wrote hello  active  hello_greet\n',
    );
    expect(await cli('skills', 'delete', 'hello')).toMatchObject({
      code: 0,
      stdout: 'Deleted hello.\n',
    });
    expect((await cli('skills', 'list')).stdout).toBe('No skills installed.\n');
    expect(await cli('skills', 'delete', 'hello')).toMatchObject({
      code: 1,
      stderr: "hearth: No skill named 'hello'\n",
    });
  });

  it('write refuses a blocked import with the gateway’s 422 detail; nothing is installed', async () => {
    const result = await cli('skills', 'write', 'bad', '--file', join(h.home, 'bad.mjs'));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/line 2: .*child_process/);
    expect(JSON.parse((await cli('skills', 'list', '--json')).stdout)).toEqual([]);
  });

  it('review pending, show, approve (by id prefix) and reject', async () => {
    for (const name of ['first', 'second']) {
      bed.fake.reply(
        { toolCalls: [{ name: 'write_skill', arguments: { name, code: GREET } }] },
        { text: 'proposed' },
      );
      await bed.post('/chat', { message: `propose ${name}`, session_id: `cli-${name}` });
    }
    const pending = JSON.parse((await cli('skills', 'review', 'pending', '--json')).stdout) as {
      id: string;
      name: string;
    }[];
    expect(pending.map((p) => p.name)).toEqual(['first', 'second']);
    const first = pending[0]!;
    const second = pending[1]!;
    expect((await cli('skills', 'review', 'pending')).stdout).toContain(
      `${first.id.slice(0, 8)}  first  tools: greet  (session cli-first)`,
    );
    expect((await cli('skills', 'review', 'show', first.id.slice(0, 8))).stdout).toContain(
      'export function greet',
    );

    expect(await cli('skills', 'review', 'approve', first.id.slice(0, 8))).toEqual({
      code: 0,
      stdout: 'Approved: first  active  first_greet\n',
      stderr: '',
    });
    expect(await cli('skills', 'review', 'reject', second.id)).toEqual({
      code: 0,
      stdout: 'Rejected the proposal for second; nothing was written.\n',
      stderr: '',
    });
    expect((await cli('skills', 'review', 'pending')).stdout).toBe(
      'No skill proposals are waiting.\n',
    );
    expect((await cli('skills', 'list')).stdout).toBe('first  active  first_greet\n');
    expect(await cli('skills', 'review', 'approve', second.id)).toMatchObject({ code: 1 });
    await cli('skills', 'delete', 'first');
  });

  it('plugins install, list, disable, enable, reload, uninstall', async () => {
    const file = join(h.home, 'weather.mjs');
    expect(await cli('plugins', 'install', file)).toEqual({
      code: 0,
      stdout: 'Installed weather  0.1.0  loaded  weather_forecast\n',
      stderr: '',
    });
    expect((await cli('plugins', 'install', file)).stderr).toMatch(/already installed/);
    expect((await cli('plugins', 'install', file, '--force')).code).toBe(0);
    expect((await cli('plugins', 'list')).stdout).toBe(
      'weather  0.1.0  loaded  weather_forecast\n',
    );
    expect(JSON.parse((await cli('plugins', 'show', 'weather')).stdout)).toMatchObject({
      name: 'weather',
      status: 'loaded',
    });
    expect((await cli('plugins', 'disable', 'weather')).stdout).toBe(
      'weather  0.1.0  disabled  (no tools)\n',
    );
    expect((await cli('plugins', 'enable', 'weather')).stdout).toBe(
      'weather  0.1.0  loaded  weather_forecast\n',
    );
    expect((await cli('plugins', 'reload', 'weather')).stdout).toBe(
      'Reloaded weather  0.1.0  loaded  weather_forecast\n',
    );
    expect((await cli('plugins', 'reload')).stdout).toBe(
      'Reloaded 1 plugin.\nweather  0.1.0  loaded  weather_forecast\n',
    );
    expect(await cli('plugins', 'uninstall', 'weather')).toMatchObject({
      code: 0,
      stdout: 'Uninstalled weather.\n',
    });
    expect((await cli('plugins', 'list')).stdout).toBe('No plugins installed.\n');
    expect((await cli('plugins', 'install', join(h.home, 'greet.mjs'))).stderr).toMatch(/Plugin/);
  });
});
