import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, freePort, type Harness } from '../testing/cli-harness.ts';

describe('hearth status', () => {
  let h: Harness;
  beforeEach(async () => void (h = await createHarness()));
  afterEach(() => h.cleanup());

  it('exits 1 when no gateway answers at the configured URL', async () => {
    const port = await freePort();
    await writeFile(join(h.home, 'config.toml'), `[gateway]\nport = ${port}\n`);

    const result = await h.run(['status']);

    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`no gateway answering at http://127.0.0.1:${port}`);
  });

  it('summarises a gateway found through the config, sending its API key', async () => {
    await writeFile(
      join(h.home, 'config.toml'),
      '[gateway]\nport = 0\napi_key = "ENV:HEARTH_TEST_API_KEY"\n',
    );
    const env = { HEARTH_TEST_API_KEY: 'key-for-status' };
    const start = await h.run(['start'], env);
    expect(start.code).toBe(0);
    const { port } = h.gateways[0]!.address;
    const other = join(h.home, 'other.toml');
    await writeFile(other, `[gateway]\nport = ${port}\napi_key = "ENV:HEARTH_TEST_API_KEY"\n`);

    const summary = await h.run(['-c', other, 'status'], env);
    expect(summary.stderr).toBe('');
    expect(summary.stdout).toMatch(
      /^Hearth at http:\/\/127\.0\.0\.1:\d+\n {2}model {5}(ready: |NOT READY — ).*\n {2}status {4}ok \(phase: ready\)/,
    );
    expect(summary.stdout).toContain('backends  database: sqlite');

    const json = await h.run(['-c', other, 'status', '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'ok', init_phase: 'ready' });

    const wrongKey = await h.run(['-c', other, 'status'], { HEARTH_TEST_API_KEY: 'wrong' });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toContain('401: Missing or invalid X-API-Key header');
  });

  it('exits 1 when something else answers at the URL', async () => {
    const server = createServer((_req, res) => res.end(JSON.stringify({ hello: 'world' })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await writeFile(join(h.home, 'config.toml'), `[gateway]\nport = ${port}\n`);
      const result = await h.run(['status']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('answered, but not with a Hearth status');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
