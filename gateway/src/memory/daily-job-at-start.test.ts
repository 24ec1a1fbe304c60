/**
 * "Long-term retention — `long_term_days`, default 90 — long-term store" and rule 7's daily
 * job, for a gateway that is not running at 03:00 (a laptop, a machine switched off at night):
 * the daily job also runs once when the gateway starts, so rows past `long_term_days` go, and
 * sessions inactive 30+ days are condensed, without waiting for a 03:00 the gateway never sees.
 * Through REST on real gateways sharing one state directory.
 */
import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway } from '../testing/gateway/test-gateway.ts';

const DAY = 86_400;

interface Entry {
  id: number;
  content: string;
}

describe('the daily memory job at start', () => {
  let home: string;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'hearth-daily-start-'));
  });
  afterAll(() => rm(home, { recursive: true, force: true }));

  it('deletes rows older than long_term_days when the gateway starts, and keeps the younger', async () => {
    const first = await startTestGateway({ home });
    await first.gateway.whenReady();
    const store = async (content: string) => {
      const res = await fetch(`${first.url}/api/v1/memory`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content, session_id: 'laptop', importance: 0.9 }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as Entry).id;
    };
    const old = await store('the boiler code is 4711 (stored 91 days ago)');
    const young = await store('the cellar key hangs by the door (stored 89 days ago)');
    await first.gateway.close();

    // The rows' age, as if the laptop had been off at 03:00 every night since.
    const now = Math.floor(Date.now() / 1000);
    const db = new Database(join(home, 'memory.db'));
    const age = db.prepare('update memory_entries set created_at = ?, updated_at = ? where id = ?');
    age.run(now - 91 * DAY, now - 91 * DAY, old);
    age.run(now - 89 * DAY, now - 89 * DAY, young);
    db.close();

    const second = await startTestGateway({ home });
    try {
      await second.gateway.whenReady();
      const ids = async () => {
        const res = await fetch(`${second.url}/api/v1/memory/entries?limit=1000`);
        return ((await res.json()) as { entries: Entry[] }).entries.map((entry) => entry.id);
      };
      await expect.poll(ids, { timeout: 5_000 }).not.toContain(old);
      expect(await ids()).toContain(young);
      const status = (await (await fetch(`${second.url}/api/v1/status`)).json()) as {
        backends: Record<string, string>;
      };
      expect(status.backends.memory_job).toMatch(/^daily at 03:00 local time and at start; next /);
    } finally {
      await second.gateway.close();
    }
  });
});
