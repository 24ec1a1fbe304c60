/**
 * Rule 16, for the spec's own format (`skill.py`): "Imports of `subprocess`, `ctypes`,
 * `winreg`, `msvcrt`, `pty`, `tty`, `termios`, `fcntl` are rejected at write/proposal time.
 * That rejection cannot be overridden." Through REST (trusted write, plugin install with force)
 * and a chat turn (the agent's `write_skill`).
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';

const BLOCKED = ['subprocess', 'ctypes', 'winreg', 'msvcrt', 'pty', 'tty', 'termios', 'fcntl'];

/** A skill.py whose second line imports `module`, in the given form. */
const skillImporting = (module: string, form: 'import' | 'from') =>
  [
    'def hello(who):',
    '    """Greets someone."""',
    '    return "hi " + who',
    '',
    form === 'import' ? `import ${module}` : `from ${module} import *`,
    '',
  ].join('\n');

describe('skill.py imports the spec rejects', () => {
  let bed: ChatTestBed;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${bed.gw.url}/api/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const skillsOnDisk = () => readdir(join(bed.gw.home, 'skills')).catch(() => []);
  beforeAll(async () => {
    bed = await startChatTestBed();
  });
  afterAll(() => bed.close());

  it.each(BLOCKED.flatMap((module) => [[module, 'import'] as const, [module, 'from'] as const]))(
    'POST /skills refuses `%s` (%s form) with 422 naming it and its line; nothing is written',
    async (module, form) => {
      const refused = await call('POST', '/skills', {
        name: `uses_${module}`,
        kind: 'py',
        code: skillImporting(module, form),
      });
      expect(refused.status).toBe(422);
      expect(refused.body.detail).toContain(module);
      expect(refused.body.detail).toMatch(/line 5/);
      expect(await skillsOnDisk()).toEqual([]);
    },
  );

  it('force does not override it: POST /plugins with force: true is refused too', async () => {
    const code = [
      'import subprocess',
      '',
      'class Runner(Plugin):',
      '    def run(self):',
      '        """Runs."""',
      '        return 1',
      '',
    ].join('\n');
    const refused = await call('POST', '/plugins', {
      name: 'forced_runner',
      kind: 'py',
      code,
      force: true,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toContain('subprocess');
    expect(await skillsOnDisk()).toEqual([]);
  });

  it('write_skill (the agent) with `import ctypes`: no proposal is queued, the tool answer says why', async () => {
    bed.fake.reply(
      {
        toolCalls: [
          {
            name: 'write_skill',
            arguments: { name: 'sneaky_py', kind: 'py', code: skillImporting('ctypes', 'import') },
          },
        ],
      },
      { text: 'ok' },
    );
    expect((await call('POST', '/chat', { message: 'write it', session_id: 'py-ws' })).status).toBe(
      200,
    );
    const [answer] = INSPECTORS['openai-chat']
      .toolResults(bed.fake.requests[1]!)
      .map((r) => r.output);
    expect(answer).toMatch(/not queued/);
    expect(answer).toContain('ctypes');
    expect((await call('GET', '/skills/review/pending')).body.pending).toEqual([]);
    await expect(lstat(join(bed.gw.home, 'skills', 'sneaky_py'))).rejects.toThrow();
  });
});
