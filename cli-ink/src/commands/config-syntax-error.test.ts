import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/cli-harness.ts';

/** The gateway's own entry (what `npm start` runs, from dist/ once built). */
const GATEWAY_MAIN = fileURLToPath(new URL('../../../gateway/src/main.ts', import.meta.url));

/** A config.toml whose third line has an unterminated string. */
const BROKEN = '[gateway]\nport = 7432\nhost = "127.0.0.1\n[models]\n';

/** What every entry point must print: the reason, the line number, the line and a caret. */
function expectLocated(text: string, path: string): void {
  expect(text).toContain(`Invalid TOML in ${path} at line 3, column 18`);
  expect(text).toContain('Newline (0x0A) not allowed in basic strings');
  expect(text).toContain('3 | host = "127.0.0.1');
  expect(text).toMatch(/\n {2}\| {18}\^/);
}

describe('a TOML syntax error in config.toml', () => {
  let h: Harness;
  let configPath: string;
  beforeEach(async () => {
    h = await createHarness();
    configPath = join(h.home, 'config.toml');
    await writeFile(configPath, BROKEN);
  });
  afterEach(() => h.cleanup());

  it('hearth config show prints the reason, the line and a caret (exit 1)', async () => {
    const result = await h.run(['config', 'show']);
    expect(result.code).toBe(1);
    expectLocated(result.stderr, configPath);
  });

  it('hearth start prints the reason, the line and a caret and starts nothing', async () => {
    const result = await h.run(['start', '--port', '0']);
    expect(result.code).toBe(1);
    expectLocated(result.stderr, configPath);
    expect(h.gateways).toHaveLength(0);
  });

  it('hearth status prints it too (the address is read from the same file)', async () => {
    const result = await h.run(['status']);
    expect(result.code).toBe(1);
    expectLocated(result.stderr, configPath);
  });

  it('the gateway process (npm start) prints it on stderr and exits 1', async () => {
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>(
      (resolve) => {
        execFile(
          process.execPath,
          [GATEWAY_MAIN, '--port', '0'],
          {
            env: { ...process.env, HEARTH_HOME: h.home, HEARTH_RUNTIME_TUNING: 'off' },
            timeout: 30_000,
          },
          (error, _stdout, stderr) =>
            resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr }),
        );
      },
    );
    expect(code).toBe(1);
    expectLocated(stderr, configPath);
  });
});
