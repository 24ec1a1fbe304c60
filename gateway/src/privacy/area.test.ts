import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../observability/logger.ts';
import { privacyArea, type PrivacyArea } from './area.ts';

describe('privacy area: what the gateway does for skills (a skill has no network of its own)', () => {
  let area: PrivacyArea | undefined;
  let dir: string | undefined;
  let server: Server | undefined;
  afterEach(async () => {
    await area?.close?.();
    if (dir) await rm(dir, { recursive: true, force: true });
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
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

  it('records a refusal with the session of the turn and the skill as source, secrets redacted', async () => {
    const privacy = await started();
    privacy.sessionContext().run('turn-1', () =>
      privacy.recordRefusal({
        source: 'skill:probe',
        method: 'get',
        url: 'https://api.example.com/v1?api_key=s3cret',
        reason: 'api.example.com is not among the hosts skill probe declares',
      }),
    );
    const report = await fetchReport(privacy);
    expect(report.unique_destinations).toEqual(['api.example.com']);
    expect(report.entries[0]).toMatchObject({
      session_id: 'turn-1',
      method: 'GET',
      source: 'skill:probe',
      refused: 'api.example.com is not among the hosts skill probe declares',
    });
    expect(JSON.stringify(report)).not.toContain('s3cret');
  });

  it('records what it observes a request made for a skill do, with the skill as source', async () => {
    const privacy = await started();
    server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // The gateway's own loopback request is not egress; one made for a skill is recorded.
    await (await fetch(`http://127.0.0.1:${port}/own`)).text();
    await privacy.attributeEgress('skill:probe', async () =>
      (await fetch(`http://127.0.0.1:${port}/for-skill`)).text(),
    );
    const report = await fetchReport(privacy);
    expect(report.total).toBe(1);
    expect(report.entries[0]).toMatchObject({
      method: 'GET',
      url: `http://127.0.0.1:${port}/for-skill`,
      source: 'skill:probe',
      refused: null,
    });
  });

  it('an unparseable URL in a refusal is recorded without it', async () => {
    const privacy = await started();
    privacy.recordRefusal({ source: 'skill:probe', method: 'GET', url: 'not a url', reason: 'x' });
    const report = await fetchReport(privacy);
    expect(report.entries[0]).toMatchObject({ url: '(not a URL)', destination: '' });
  });

  it('has no way for anything to report a request of its own', async () => {
    const privacy = await started();
    expect('recordRequest' in privacy).toBe(false);
  });
});

async function fetchReport(privacy: PrivacyArea) {
  const route = privacy.routes?.find((r) => r.method === 'get');
  return (await route!.handler({ params: {}, query: {}, body: {}, headers: {} })) as {
    total: number;
    unique_destinations: string[];
    entries: { session_id: string | null; method: string; url: string; source: string | null }[];
  };
}
