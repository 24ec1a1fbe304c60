import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  readRuntimeFile,
  removeRuntimeFile,
  runtimeFilePath,
  writeRuntimeFileSync,
} from './runtime-file.ts';

const GOOD = {
  pid: 4242,
  port: 8123,
  host: '127.0.0.1',
  url: 'http://127.0.0.1:8123',
  started_at: '2026-01-01T00:00:00.000Z',
  config_path: '/home/u/.hearth/config.toml',
};

describe('the runtime file', () => {
  let home: string;
  beforeEach(async () => void (home = await mkdtemp(join(tmpdir(), 'hearth-runtime-'))));
  afterEach(() => rm(home, { recursive: true, force: true }));

  it('round-trips, and is removed only by the gateway it names', async () => {
    writeRuntimeFileSync(home, GOOD);
    expect(await readRuntimeFile(home)).toEqual(GOOD);
    await removeRuntimeFile(home, { pid: GOOD.pid, port: 9999 });
    expect(await readRuntimeFile(home)).toEqual(GOOD);
    await removeRuntimeFile(home, { pid: GOOD.pid, port: GOOD.port });
    expect(await readRuntimeFile(home)).toBeUndefined();
  });

  it.each([
    ['not JSON', '{pid: 1'],
    ['not an object', '42'],
    ['a negative pid', JSON.stringify({ ...GOOD, pid: -1 })],
    ['a fractional pid', JSON.stringify({ ...GOOD, pid: 1.5 })],
    ['a port out of range', JSON.stringify({ ...GOOD, port: 70_000 })],
    ['a non-http URL', JSON.stringify({ ...GOOD, url: 'file:///etc/passwd' })],
    ['credentials in the URL', JSON.stringify({ ...GOOD, url: 'http://u:p@127.0.0.1:1' })],
    ['a query in the URL', JSON.stringify({ ...GOOD, url: 'http://127.0.0.1:1/?x=1' })],
    ['no URL at all', JSON.stringify({ ...GOOD, url: 'nonsense' })],
    ['an oversized file', JSON.stringify({ ...GOOD, pad: 'x'.repeat(20_000) })],
  ])('is ignored when it holds %s', async (_what, text) => {
    await writeFile(runtimeFilePath(home), text);
    expect(await readRuntimeFile(home)).toBeUndefined();
  });

  it('keeps only the origin of a URL with a path', async () => {
    await writeFile(
      runtimeFilePath(home),
      JSON.stringify({ ...GOOD, url: 'http://127.0.0.1:8123/somewhere/else' }),
    );
    expect((await readRuntimeFile(home))?.url).toBe('http://127.0.0.1:8123');
  });
});
