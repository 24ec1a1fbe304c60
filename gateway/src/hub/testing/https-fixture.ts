import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HubNetwork } from '../fetch-package.ts';
import { systemResolver } from '../host-resolver.ts';
import { createPinnedFetch } from '../pinned-fetch.ts';

/** The name the test certificate also holds, which only a test resolver maps to an address. */
export const TEST_PACKAGE_HOST = 'packages.hearth.test';

/** A throwaway self-signed certificate for 127.0.0.1, localhost and TEST_PACKAGE_HOST, made with openssl. */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-hub-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        `subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:${TEST_PACKAGE_HOST}`,
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore', timeout: 10_000 },
    );
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore', timeout: 5_000 });
    return true;
  } catch {
    return false;
  }
}

/** A local web server that counts the requests it got, for "nothing was fetched" checks. */
export interface CountingServer {
  /** `https://127.0.0.1:<port>` or `http://…`. */
  origin: string;
  requests: IncomingMessage[];
  close(): Promise<void>;
}

async function listen(server: Server, scheme: string, requests: IncomingMessage[]) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `${scheme}://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function startHttpsServer(
  certificate: { key: string; cert: string },
  handler: RequestListener,
): Promise<CountingServer> {
  const requests: IncomingMessage[] = [];
  const server = createHttpsServer(certificate, (req, res) => {
    requests.push(req);
    handler(req, res);
  });
  return listen(server, 'https', requests);
}

export async function startHttpServer(handler: RequestListener): Promise<CountingServer> {
  const requests: IncomingMessage[] = [];
  const server = createHttpServer((req, res) => {
    requests.push(req);
    handler(req, res);
  });
  return listen(server, 'http', requests);
}

/**
 * The hub's real network adapters pointed at the test server: the pinned undici fetch trusting
 * only `ca` (the test certificate), the system resolver unless a test maps names itself, and the
 * private-hosts opt-in, since the test server listens on 127.0.0.1.
 */
export function trustingNetwork(ca: string, overrides: Partial<HubNetwork> = {}): HubNetwork {
  return {
    fetch: createPinnedFetch({ ca }),
    resolve: systemResolver,
    allowPrivateHosts: true,
    ...overrides,
  };
}
