import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as TOML from '@decimalturn/toml-patch';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../testing/cli-harness.ts';

const apiKeyIn = async (path: string) =>
  (TOML.parse(await readFile(path, 'utf8')) as { gateway: { api_key: string } }).gateway.api_key;

describe('hearth config set-key', () => {
  let h: Harness;
  let path: string;
  beforeEach(async () => {
    h = await createHarness();
    path = join(h.home, 'config.toml');
  });
  afterEach(() => h.cleanup());

  it('generates a random key, writes it 0600 keeping comments, and prints it once', async () => {
    await writeFile(path, '# mine\n[gateway]\nport = 7501 # my port\n');
    const result = await h.run(['config', 'set-key']);
    expect(result.code).toBe(0);
    const key = await apiKeyIn(path);
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(result.stdout.split(key)).toHaveLength(2);
    const text = await readFile(path, 'utf8');
    expect(text).toContain('# mine');
    expect(text).toContain('port = 7501 # my port');
    expect((await stat(path)).mode & 0o777).toBe(0o600);

    await h.run(['config', 'set-key']);
    expect(await apiKeyIn(path)).not.toBe(key);
  });

  it('--stdin takes the key from standard input and does not echo it', async () => {
    const given = 'my-own-key-0123456789';
    const result = await h.run(['config', 'set-key', '--stdin'], {}, [`${given}\n`]);
    expect(result.code).toBe(0);
    expect(await apiKeyIn(path)).toBe(given);
    expect(result.stdout).not.toContain(given);
  });

  it.each(['short', 'has a space in it 0123', ''])(
    '--stdin refuses %j and writes nothing',
    async (given) => {
      const result = await h.run(['config', 'set-key', '--stdin'], {}, [`${given}\n`]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/16 to 512 visible characters/);
      await expect(readFile(path, 'utf8')).rejects.toThrow(/ENOENT/);
    },
  );
});
