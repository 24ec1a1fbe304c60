import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createHarness, freePort, type Harness } from '../testing/cli-harness.ts';

describe('hearth models and usage without a running gateway', () => {
  let harness: Harness;
  let port: number;
  beforeEach(async () => {
    harness = await createHarness();
    port = await freePort();
    await writeFile(join(harness.home, 'config.toml'), `[gateway]\nport = ${port}\n`);
  });
  afterEach(() => harness.cleanup());

  it('models list shows the 19 providers with their prefixes', async () => {
    const result = await harness.run(['models', 'list', '--json']);
    expect(result.code).toBe(0);
    const rows = JSON.parse(result.stdout) as { provider: string; prefixes: string[] }[];
    expect(rows).toHaveLength(19);
    expect(rows.find((r) => r.provider === 'groq')?.prefixes).toEqual(['groq/']);
  });

  it('models status falls back to this process, computing status from the config file, with a note', async () => {
    const result = await harness.run(['models', 'status', '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`note: no gateway answering at http://127.0.0.1:${port}`);
    expect(result.stderr).toContain('computed from the configuration file');
    const body = JSON.parse(result.stdout) as {
      providers: { provider: string; configured: boolean | null }[];
    };
    expect(body.providers).toHaveLength(19);
    expect(body.providers.find((p) => p.provider === 'bedrock')?.configured).toBeNull();
  });

  it('usage says the counters live in the gateway and shows none', async () => {
    const result = await harness.run(['usage']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('usage counters live in the gateway process');
    expect(result.stdout.trim()).toBe('No generations yet.');
  });
});
