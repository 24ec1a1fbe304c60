/**
 * The spec's limits table: "Audit log retention — 90 days — privacy audit". Over the real
 * interface: a gateway started on a state directory whose audit holds a request from 91 days ago
 * and one from 89 days ago reports only the second in `GET /privacy/report`.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';
import { openAuditStore } from './audit-store.ts';

const DAY = 86_400;

describe('privacy audit retention', () => {
  let gw: TestGateway | undefined;
  afterAll(() => gw?.close());

  it('drops requests older than 90 days; keeps younger ones', async () => {
    const home = await mkdtemp(join(tmpdir(), 'hearth-audit-retention-'));
    const now = Date.now() / 1000;
    // Written as an earlier run would have: keep everything while writing.
    const earlier = openAuditStore(join(home, 'privacy_audit.db'), { retentionDays: 10_000 });
    const row = (destination: string, ageDays: number) => ({
      session_id: 'old-session',
      method: 'POST',
      url: `https://${destination}/v1/chat`,
      destination,
      timestamp: now - ageDays * DAY,
    });
    earlier.record(row('expired.example', 91));
    earlier.record(row('kept.example', 89));
    earlier.close();

    gw = await startTestGateway({ home });
    await gw.gateway.whenReady();
    const report = (await (
      await fetch(`${gw.url}/api/v1/privacy/report?session_id=old-session`)
    ).json()) as { total: number; unique_destinations: string[] };
    expect(report).toMatchObject({ total: 1, unique_destinations: ['kept.example'] });
  });
});
