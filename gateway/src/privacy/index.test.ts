import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrivacyAudit } from './index.ts';

const NOW = 1_800_000_000;

function abandon(url: string): Promise<void> {
  return new Promise((resolve) => {
    const req = request(url);
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.destroy();
  });
}

describe('createPrivacyAudit', () => {
  let dir: string;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-privacy-'));
    server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
  });

  it('records egress of a turn, skips loopback and the local runtime, and persists', async () => {
    const dbPath = join(dir, 'privacy_audit.db');
    const audit = createPrivacyAudit({
      dbPath,
      localHosts: ['http://ollama:11434'],
      trustPrivate: true,
      resolve: (hostname) => Promise.resolve(hostname === 'ollama' ? ['10.0.0.10'] : []),
      now: () => NOW,
    });
    audit.start();
    audit.start();
    expect(await audit.localHostsChecked()).toEqual({
      local: ['http://ollama:11434'],
      audited: [],
    });
    await audit.sessionContext.run('turn-1', async () => {
      await (await fetch(`http://127.0.0.1:${port}/loopback`)).text();
      await abandon('http://ollama:11434/api/chat');
      await abandon('http://192.0.2.99/v1/chat?key=abc');
    });
    expect(audit.store.report('turn-1')).toEqual({
      session_id: 'turn-1',
      total: 1,
      unique_destinations: ['192.0.2.99'],
      entries: [
        {
          session_id: 'turn-1',
          method: 'GET',
          url: 'http://192.0.2.99/v1/chat?key=REDACTED',
          destination: '192.0.2.99',
          timestamp: NOW,
          source: null,
          refused: null,
        },
      ],
    });
    expect(audit.store.report('fresh')).toMatchObject({ total: 0, unique_destinations: [] });
    expect(audit.routes.map((route) => `${route.method} ${route.path}`)).toEqual([
      'get /privacy/report',
      'delete /privacy/report',
    ]);
    audit.stop();
    audit.stop();

    const reopened = createPrivacyAudit({ dbPath, localHosts: [], now: () => NOW });
    expect(reopened.store.report(null).total).toBe(1);
    await abandon('http://192.0.2.99/not-started');
    expect(reopened.store.report(null).total).toBe(1);
    reopened.stop();
  });

  it('audits a configured runtime whose name resolves off the machine, and warns about it', async () => {
    const warnings: unknown[] = [];
    const audit = createPrivacyAudit({
      dbPath: join(dir, 'off-machine.db'),
      localHosts: ['http://gpu.example.com:11434'],
      trustPrivate: true,
      resolve: () => Promise.resolve(['203.0.113.9']),
      logger: { warn: (fields: unknown) => void warnings.push(fields) },
      now: () => NOW,
    });
    audit.start();
    await audit.localHostsChecked();
    await audit.sessionContext.run('remote-runtime', () =>
      abandon('http://gpu.example.com:11434/api/chat'),
    );
    expect(audit.store.report('remote-runtime')).toMatchObject({
      total: 1,
      unique_destinations: ['gpu.example.com:11434'],
    });
    expect(warnings).toEqual([
      expect.objectContaining({
        service: 'http://gpu.example.com:11434',
        addresses: ['203.0.113.9'],
      }),
    ]);
    audit.stop();
  });
});
