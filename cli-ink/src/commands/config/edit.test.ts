import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_CONFIG_TOML } from '@hearth/gateway';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../testing/cli-harness.ts';

describe('hearth config edit', () => {
  let h: Harness;
  beforeEach(async () => void (h = await createHarness()));
  afterEach(() => h.cleanup());

  /** An "editor": a shell script that replaces the file it is given with `content`. */
  async function editorWriting(content: string): Promise<string> {
    const script = join(h.home, 'editor.sh');
    await writeFile(script, `printf '%s' '${content}' > "$1"\n`);
    return `/bin/sh ${script}`;
  }

  it('creates the file from the defaults, runs $EDITOR on it and accepts a valid result', async () => {
    const result = await h.run(['config', 'edit'], { EDITOR: 'true' });

    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Created .*config\.toml from the defaults/);
    expect(result.stdout).toMatch(/config\.toml is valid/);
    expect(await readFile(join(h.home, 'config.toml'), 'utf8')).toBe(DEFAULT_CONFIG_TOML);
  });

  it('prefers $VISUAL and reports an invalid edit naming the key', async () => {
    const visual = await editorWriting('[gateway]\nport = 99999\n');
    const result = await h.run(['config', 'edit'], { VISUAL: visual, EDITOR: 'false' });

    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/gateway\.port: /);
    expect(result.stderr).toContain("Run 'hearth config edit' again");
  });

  it('reports an editor that fails', async () => {
    const result = await h.run(['config', 'edit'], { EDITOR: 'false' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/the editor \(false\) exited with 1/);
  });
});
