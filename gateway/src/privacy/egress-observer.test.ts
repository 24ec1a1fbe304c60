import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, createServer as createHttp2Server } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openAuditStore } from './audit-store.ts';
import { createEgressObserver, type EgressObserver } from './egress-observer.ts';
import { createIsLocal, type IsLocal } from './local-hosts.ts';
import { createSessionContext } from './session-context.ts';
import type { EgressEntry } from './types.ts';

const NOW = 1_800_000_000;
const everythingIsExternal: IsLocal = () => false;

let server: Server;
let port: number;
let closedPort: number;
let observer: EgressObserver | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  observer?.stop();
  observer = undefined;
});

function observe(isLocal: IsLocal) {
  const entries: EgressEntry[] = [];
  const sessionContext = createSessionContext();
  observer = createEgressObserver({
    isLocal,
    record: (entry) => entries.push(entry),
    sessionContext,
    now: () => NOW,
  });
  return { entries, sessionContext };
}

function httpGet(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Starts a request and abandons it: the start event has been published by then. */
function startAndAbandon(
  send: typeof httpRequest | typeof httpsRequest,
  url: string,
): Promise<void> {
  return new Promise((resolve) => {
    const req = send(url);
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.destroy();
  });
}

describe('egress observer', () => {
  it('records nothing for loopback with the default predicate', async () => {
    const { entries } = observe(createIsLocal([]));
    await (await fetch(`http://127.0.0.1:${port}/a?key=abc`)).text();
    await httpGet(`http://localhost:${port}/b`);
    await startAndAbandon(httpsRequest, `https://127.0.0.1:${closedPort}/c`);
    expect(entries).toEqual([]);
  });

  it('records a non-loopback destination with the default predicate', async () => {
    const { entries } = observe(createIsLocal([]));
    // TEST-NET-1: never routed; the request is abandoned before it could connect.
    await startAndAbandon(httpsRequest, 'https://192.0.2.1/v1/chat?key=abc');
    expect(entries).toEqual([
      {
        session_id: null,
        method: 'GET',
        url: 'https://192.0.2.1/v1/chat?key=REDACTED',
        destination: '192.0.2.1',
        timestamp: NOW,
      },
    ]);
  });

  it('does not record a configured local host', async () => {
    const { entries } = observe(createIsLocal(['http://192.0.2.1:11434']));
    await startAndAbandon(httpRequest, 'http://192.0.2.1:11434/api/chat');
    await startAndAbandon(httpRequest, 'http://192.0.2.1:8080/other');
    expect(entries.map((entry) => entry.destination)).toEqual(['192.0.2.1:8080']);
  });

  it('records fetch with method, redacted url, destination and session', async () => {
    const { entries, sessionContext } = observe(everythingIsExternal);
    await sessionContext.run('s1', async () => {
      const res = await fetch(`http://127.0.0.1:${port}/v1/models?key=abc&q=1`, {
        method: 'POST',
        body: '{}',
      });
      await res.text();
    });
    expect(entries).toEqual([
      {
        session_id: 's1',
        method: 'POST',
        url: `http://127.0.0.1:${port}/v1/models?key=REDACTED&q=1`,
        destination: `127.0.0.1:${port}`,
        timestamp: NOW,
      },
    ]);
  });

  it('records node:http with the session of the turn, null outside one', async () => {
    const { entries, sessionContext } = observe(everythingIsExternal);
    await sessionContext.run('s2', () => httpGet(`http://127.0.0.1:${port}/in?token=t`));
    await httpGet(`http://127.0.0.1:${port}/out`);
    expect(entries).toEqual([
      expect.objectContaining({
        session_id: 's2',
        url: `http://127.0.0.1:${port}/in?token=REDACTED`,
      }),
      expect.objectContaining({
        session_id: null,
        url: `http://127.0.0.1:${port}/out`,
        method: 'GET',
      }),
    ]);
  });

  it('records node:https even when the connection fails', async () => {
    const { entries, sessionContext } = observe(everythingIsExternal);
    await sessionContext.run(
      's3',
      () =>
        new Promise<void>((resolve) => {
          const req = httpsRequest(
            { host: '127.0.0.1', port: closedPort, path: '/c?api_key=k', method: 'PUT' },
            () => resolve(),
          );
          req.on('error', () => resolve());
          req.end();
        }),
    );
    expect(entries).toEqual([
      {
        session_id: 's3',
        method: 'PUT',
        url: `https://127.0.0.1:${closedPort}/c?api_key=REDACTED`,
        destination: `127.0.0.1:${closedPort}`,
        timestamp: NOW,
      },
    ]);
  });

  it('omits the default port from the destination', async () => {
    const { entries } = observe(everythingIsExternal);
    await startAndAbandon(httpsRequest, 'https://192.0.2.1:443/x');
    await startAndAbandon(httpRequest, 'http://192.0.2.1:80/y');
    expect(entries.map((entry) => [entry.url, entry.destination])).toEqual([
      ['https://192.0.2.1/x', '192.0.2.1'],
      ['http://192.0.2.1/y', '192.0.2.1'],
    ]);
  });

  it('records a node:http request once though it is announced on creation and on start', async () => {
    const { entries } = observe(everythingIsExternal);
    await httpGet(`http://127.0.0.1:${port}/once`);
    expect(entries).toHaveLength(1);
  });

  it('records a node:http request announced only when it starts', async () => {
    const req = httpRequest(`http://127.0.0.1:${port}/created-before-observing`, (res) =>
      res.resume(),
    );
    const done = new Promise((resolve) => req.on('close', resolve));
    const { entries } = observe(everythingIsExternal);
    req.end();
    await done;
    expect(entries.map((entry) => entry.url)).toEqual([
      `http://127.0.0.1:${port}/created-before-observing`,
    ]);
  });

  it('records node:http2 streams', async () => {
    const h2 = createHttp2Server((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => h2.listen(0, '127.0.0.1', resolve));
    const h2Port = (h2.address() as AddressInfo).port;
    const { entries, sessionContext } = observe(everythingIsExternal);
    await sessionContext.run('s4', async () => {
      const client = connect(`http://127.0.0.1:${h2Port}`);
      const stream = client.request({ ':path': '/h2?secret=x' });
      stream.resume();
      await new Promise((resolve) => stream.on('end', resolve));
      client.close();
    });
    await new Promise<void>((resolve) => h2.close(() => resolve()));
    expect(entries).toEqual([
      {
        session_id: 's4',
        method: 'GET',
        url: `http://127.0.0.1:${h2Port}/h2?secret=REDACTED`,
        destination: `127.0.0.1:${h2Port}`,
        timestamp: NOW,
      },
    ]);
  });

  it('does not record a request over a Unix socket', async () => {
    const { entries } = observe(everythingIsExternal);
    await new Promise<void>((resolve) => {
      const req = httpRequest({ socketPath: join(tmpdir(), 'hearth-no-such.sock'), path: '/v1' });
      req.on('error', () => resolve());
      req.end();
    });
    expect(entries).toEqual([]);
  });

  it('stops recording after stop()', async () => {
    const { entries } = observe(everythingIsExternal);
    observer?.stop();
    await httpGet(`http://127.0.0.1:${port}/after`);
    expect(entries).toEqual([]);
  });

  it('never throws into the request path', async () => {
    const sessionContext = createSessionContext();
    observer = createEgressObserver({
      isLocal: everythingIsExternal,
      record: () => {
        throw new Error('disk full');
      },
      sessionContext,
      now: () => NOW,
    });
    const res = await fetch(`http://127.0.0.1:${port}/still-works`);
    expect(await res.text()).toBe('ok');
    await expect(httpGet(`http://127.0.0.1:${port}/still-works`)).resolves.toBeUndefined();
  });
});

describe('what is stored', () => {
  it('keeps no header and no body in any column', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-privacy-'));
    const file = join(dir, 'privacy_audit.db');
    const store = openAuditStore(file, { now: () => NOW });
    const sessionContext = createSessionContext();
    observer = createEgressObserver({
      isLocal: everythingIsExternal,
      record: (entry) => store.record(entry),
      sessionContext,
      now: () => NOW,
    });
    const secretHeader = 'Bearer sk-header-secret-123';
    const secretBody = 'body-secret-456';
    await sessionContext.run('s5', async () => {
      const res = await fetch(`http://127.0.0.1:${port}/v1/chat`, {
        method: 'POST',
        headers: { authorization: secretHeader, 'x-api-key': 'xkey-789' },
        body: JSON.stringify({ prompt: secretBody }),
      });
      await res.text();
      await new Promise<void>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            path: '/v1/chat',
            method: 'POST',
            headers: { authorization: secretHeader },
          },
          (res2) => {
            res2.resume();
            res2.on('end', resolve);
          },
        );
        req.on('error', reject);
        req.end(secretBody);
      });
    });
    observer.stop();
    store.close();

    const db = new BetterSqlite3(file, { readonly: true });
    const rows = db.prepare('SELECT * FROM egress').all() as Record<string, unknown>[];
    db.close();
    await rm(dir, { recursive: true, force: true });

    expect(rows).toHaveLength(2);
    const stored = JSON.stringify(rows);
    for (const secret of ['sk-header-secret', 'Bearer', 'xkey-789', secretBody, 'prompt']) {
      expect(stored).not.toContain(secret);
    }
    expect(rows.map((row) => row.url)).toEqual([
      `http://127.0.0.1:${port}/v1/chat`,
      `http://127.0.0.1:${port}/v1/chat`,
    ]);
  });
});
