import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_CONFIG_TOML } from '@hearth/gateway';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../testing/cli-harness.ts';

describe('hearth config init', () => {
  let h: Harness;
  beforeEach(async () => void (h = await createHarness()));
  afterEach(() => h.cleanup());

  it('writes the default config with mode 0600 in a 0700 folder', async () => {
    const home = join(h.home, 'state');
    const result = await h.run(['config', 'init'], { HEARTH_HOME: home });

    expect(result).toMatchObject({ code: 0, stderr: '' });
    const path = join(home, 'config.toml');
    expect(result.stdout).toContain(path);
    expect(await readFile(path, 'utf8')).toBe(DEFAULT_CONFIG_TOML);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(home)).mode & 0o777).toBe(0o700);
  });

  it('refuses to overwrite an existing file without --force', async () => {
    const path = join(h.home, 'config.toml');
    expect((await h.run(['config', 'init'])).code).toBe(0);
    await writeFile(path, '[gateway]\nport = 9000\n');

    const second = await h.run(['config', 'init']);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/already exists; use --force/);
    expect(await readFile(path, 'utf8')).toBe('[gateway]\nport = 9000\n');

    const forced = await h.run(['config', 'init', '--force']);
    expect(forced.code).toBe(0);
    expect(await readFile(path, 'utf8')).toBe(DEFAULT_CONFIG_TOML);
  });

  it('writes where -c/--config points', async () => {
    const path = join(h.home, 'elsewhere', 'hearth.toml');
    expect((await h.run(['-c', path, 'config', 'init'])).code).toBe(0);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });
});
