import type { GatewayStatus } from '@hearth/client';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TEST_RUNTIME, type Harness } from '../testing/cli-harness.ts';

describe('hearth start (foreground)', () => {
  let h: Harness;
  beforeEach(async () => void (h = await createHarness()));
  afterEach(() => h.cleanup());

  it('starts the gateway, prints its URL once ready and installs the signal handlers', async () => {
    const result = await h.run(['start', '--port', '0']);

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(h.gateways).toHaveLength(1);
    const { port } = h.gateways[0]!.address;
    expect(result.stdout).toBe(`Hearth is ready at http://127.0.0.1:${port}\n`);
    const ready = await fetch(`http://127.0.0.1:${port}/ready`);
    expect(ready.status).toBe(200);
    // The memory set-up `start` asked for before running the gateway reaches /status.
    const status = (await (
      await fetch(`http://127.0.0.1:${port}/api/v1/status`)
    ).json()) as GatewayStatus;
    expect(status.backends).toMatchObject(TEST_RUNTIME);
  });

  it('--voice-mode on a host without speech-to-text or a microphone: the gateway runs and says why', async () => {
    const ptt = await h.run(['start', '--port', '0', '--voice-mode', 'ptt']);
    expect(ptt.code).toBe(0);
    expect(ptt.stdout).toMatch(
      /^Hearth is ready at .*\nnote: voice mode ptt: push-to-talk is unavailable \(no speech-to-text; run `hearth voice models pull`\)\n$/,
    );
    const wake = await h.run(['start', '--port', '0', '--voice-mode', 'wake']);
    expect(wake.code).toBe(0);
    expect(wake.stdout).toMatch(
      /note: voice mode wake is unavailable: no host audio input: no capture device/,
    );
    const off = await h.run(['start', '--port', '0', '--voice-mode', 'off']);
    expect(off.stdout).toMatch(/^Hearth is ready at [^\n]*\n$/);
  });

  it('rejects an unknown --voice-mode and a bad --port as usage errors (exit 2)', async () => {
    const voice = await h.run(['start', '--voice-mode', 'shout']);
    expect(voice.code).toBe(2);
    expect(voice.stderr).toContain('Allowed choices are ptt, continuous, wake, off');

    const port = await h.run(['start', '--port', '70000']);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('expected a port number from 0 to 65535');
    expect(h.gateways).toHaveLength(0);
  });

  it('exits 1 with the start-up failure when a phase fails', async () => {
    const configPath = join(h.home, 'config.toml');
    // The database path's parent is a file: the database phase cannot create it.
    await writeFile(configPath, `[memory]\ndb_path = "${configPath}/memory.db"\n`);

    const result = await h.run(['start', '--port', '0']);

    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^hearth: start-up failed: database: Cannot open the SQLite database/,
    );
    expect(result.stdout).toBe('');
  });

  it('exits 1 when the gateway cannot start at all', async () => {
    const result = await h.run(['start', '--port', '0', '--bind', '0.0.0.0']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^hearth: could not start the gateway: Refusing to bind 0\.0\.0\.0/,
    );
  });

  it('refuses --background without a fixed port', async () => {
    const result = await h.run(['start', '--background', '--port', '0']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--background needs a fixed port');
  });
});
