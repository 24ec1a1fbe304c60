import { spawnSync } from 'node:child_process';
import { access, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, freePort, type Harness } from '../testing/cli-harness.ts';

describe('hearth stop', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
    // `stop` asks the configured address whether a gateway answers: a port nothing listens on.
    await writeFile(join(h.home, 'config.toml'), `[gateway]\nport = ${await freePort()}\n`);
  });
  afterEach(() => h.cleanup());

  it('says Hearth is not running when there is no pid file', async () => {
    expect(await h.run(['stop'])).toEqual({
      code: 0,
      stdout: 'Hearth is not running\n',
      stderr: '',
    });
  });

  it('removes a stale pid file whose process is gone', async () => {
    const exited = spawnSync(process.execPath, ['-e', '0']);
    const pidFile = join(h.home, 'gateway.pid');
    await writeFile(pidFile, JSON.stringify({ pid: exited.pid, url: 'http://127.0.0.1:1' }));

    expect(await h.run(['stop'])).toEqual({
      code: 0,
      stdout: 'Hearth is not running\n',
      stderr: '',
    });
    await expect(access(pidFile)).rejects.toThrow(/ENOENT/);
  });
});
