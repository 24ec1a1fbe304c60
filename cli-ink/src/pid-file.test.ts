import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readPidFile, writePidFile } from './pid-file.ts';

describe('pid file', () => {
  let dir: string;
  beforeEach(async () => void (dir = await mkdtemp(join(tmpdir(), 'hearth-pid-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('round-trips {pid, url, configPath} as JSON with mode 0600', async () => {
    const path = join(dir, 'gateway.pid');
    const record = { pid: 4242, url: 'http://127.0.0.1:7500', configPath: '/x/config.toml' };
    await writePidFile(path, record);

    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(record);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readPidFile(path)).toEqual(record);
  });

  it('reads a bare pid, and treats a missing or garbled file as no record', async () => {
    const path = join(dir, 'gateway.pid');
    expect(await readPidFile(path)).toBeUndefined();
    await writeFile(path, '1234\n');
    expect(await readPidFile(path)).toEqual({ pid: 1234 });
    await writeFile(path, '{"pid": "soon"}');
    expect(await readPidFile(path)).toBeUndefined();
    await writeFile(path, 'not json');
    expect(await readPidFile(path)).toBeUndefined();
  });
});
