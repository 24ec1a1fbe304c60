import { VERSION } from '@hearth/gateway';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/cli-harness.ts';

describe('hearth version', () => {
  let h: Harness;
  beforeEach(async () => void (h = await createHarness()));
  afterEach(() => h.cleanup());

  it('prints the version', async () => {
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+/);
    expect(await h.run(['version'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('prints it for --version too', async () => {
    expect(await h.run(['--version'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('exits 2 (usage) on an unknown command', async () => {
    const result = await h.run(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command 'frobnicate'");
  });
});
