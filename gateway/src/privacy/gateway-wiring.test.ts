import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnvironment } from '../config/environment.ts';
import { runGateway, type RunningGateway } from '../run.ts';

describe('privacy audit in a running gateway', () => {
  let home: string;
  let running: RunningGateway;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'hearth-privacy-'));
    running = await runGateway({
      env: readEnvironment({
        HEARTH_HOME: join(home, 'state'),
        HEARTH_AUDIT_DB_PATH: join(home, 'elsewhere', 'audit.db'),
        HEARTH_LOG_LEVEL: 'silent',
      }),
      port: 0,
      pretty: false,
    });
    await running.gateway.whenReady();
  });
  afterAll(async () => {
    await running.stop();
    await rm(home, { recursive: true, force: true });
  });

  it('keeps the audit database where HEARTH_AUDIT_DB_PATH says, mode 0600', async () => {
    expect((await stat(join(home, 'elsewhere', 'audit.db'))).mode & 0o777).toBe(0o600);
    await expect(stat(join(home, 'state', 'privacy_audit.db'))).rejects.toThrow();
  });

  it('reports a fresh session with total 0 and no destinations', async () => {
    const res = await fetch(
      `${running.address.url}/api/v1/privacy/report?session_id=fresh-session`,
    );
    expect(await res.json()).toEqual({
      session_id: 'fresh-session',
      total: 0,
      unique_destinations: [],
      entries: [],
    });
  });

  it('clears all sessions with DELETE and no session_id', async () => {
    const res = await fetch(`${running.address.url}/api/v1/privacy/report`, { method: 'DELETE' });
    expect(await res.json()).toEqual({ cleared: 0, session_id: null });
  });
});
