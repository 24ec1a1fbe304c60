import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../observability/logger.ts';
import { privacyArea, type PrivacyArea } from './area.ts';

describe('privacy area: requests reported from outside the process (skill hosts)', () => {
  let area: PrivacyArea | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await area?.close?.();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function started(): Promise<PrivacyArea> {
    dir = await mkdtemp(join(tmpdir(), 'hearth-privacy-area-'));
    area = privacyArea({
      dbPath: join(dir, 'audit.db'),
      localServices: [],
      trustPrivate: false,
      logger: silentLogger(),
    });
    await area.start?.();
    return area;
  }

  it('records a reported request with the session of the turn, secrets redacted', async () => {
    const privacy = await started();
    privacy
      .sessionContext()
      .run('turn-1', () =>
        privacy.recordRequest('get', 'https://api.example.com/v1?api_key=s3cret'),
      );
    const report = await fetchReport(privacy);
    expect(report.unique_destinations).toEqual(['api.example.com']);
    expect(report.entries[0]).toMatchObject({ session_id: 'turn-1', method: 'GET' });
    expect(JSON.stringify(report)).not.toContain('s3cret');
  });

  it('does not record loopback or an unparseable URL', async () => {
    const privacy = await started();
    privacy.recordRequest('GET', 'http://127.0.0.1:9/x');
    privacy.recordRequest('GET', 'http://[::1]:9/x');
    privacy.recordRequest('GET', 'not a url');
    expect((await fetchReport(privacy)).total).toBe(0);
  });
});

async function fetchReport(privacy: PrivacyArea) {
  const route = privacy.routes?.find((r) => r.method === 'get');
  return (await route!.handler({ params: {}, query: {}, body: {}, headers: {} })) as {
    total: number;
    unique_destinations: string[];
    entries: { session_id: string | null; method: string }[];
  };
}
