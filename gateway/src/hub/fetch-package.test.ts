import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HearthError } from '../errors.ts';
import {
  DEFAULT_FETCH_LIMITS,
  fetchPackage,
  type HubFetchLimits,
  type HubNetwork,
} from './fetch-package.ts';
import { createPinnedFetch } from './pinned-fetch.ts';
import { parsePackageUrl } from './package-url.ts';
import {
  trustingNetwork,
  hasOpenssl,
  selfSignedCertificate,
  startHttpServer,
  startHttpsServer,
  type CountingServer,
} from './testing/https-fixture.ts';

const SKILL = 'export const tools = [];\n';

async function refusal(work: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await work;
  } catch (error) {
    if (error instanceof HearthError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe.runIf(hasOpenssl())(
  'fetching a hub package over https (skipped without openssl, which makes the test certificate)',
  () => {
    let https: CountingServer;
    let plain: CountingServer;
    let network: HubNetwork;
    const limits: HubFetchLimits = { ...DEFAULT_FETCH_LIMITS, maxBytes: 1024, timeoutMs: 2_000 };
    const get = (path: string, overrides: Partial<HubFetchLimits> = {}) =>
      fetchPackage(parsePackageUrl(`${https.origin}${path}`), network, { ...limits, ...overrides });

    beforeAll(async () => {
      const certificate = selfSignedCertificate();
      network = trustingNetwork(certificate.cert);
      plain = await startHttpServer((_req, res) => res.end(SKILL));
      https = await startHttpsServer(certificate, (req, res) => {
        const path = req.url ?? '/';
        if (path === '/skill.mjs') return res.end(SKILL);
        if (path === '/hop') return res.writeHead(302, { location: '/skill.mjs' }).end();
        if (path === '/to-http')
          return res.writeHead(301, { location: `${plain.origin}/skill.mjs` }).end();
        if (path === '/to-file')
          return res.writeHead(307, { location: 'file:///etc/passwd' }).end();
        if (path === '/loop') return res.writeHead(302, { location: '/loop' }).end();
        if (path === '/no-location') return res.writeHead(302).end();
        if (path === '/declared-huge')
          return res.writeHead(200, { 'content-length': String(10_000_000) }).end();
        if (path === '/chunked-huge') {
          // No Content-Length: the cap has to hold while streaming.
          res.writeHead(200, { 'content-type': 'text/plain' });
          const chunk = 'x'.repeat(512);
          for (let i = 0; i < 64; i += 1) res.write(chunk);
          return res.end();
        }
        if (path === '/slow') {
          res.writeHead(200);
          res.write('export ');
          return res; // never ends
        }
        if (path === '/missing') return res.writeHead(404).end('no');
        return res.writeHead(500).end();
      });
    });
    afterAll(async () => {
      await https.close();
      await plain.close();
    });

    it('returns the bytes of an https URL', async () => {
      expect(Buffer.from(await get('/skill.mjs')).toString()).toBe(SKILL);
    });

    it('follows an https redirect', async () => {
      expect(Buffer.from(await get('/hop')).toString()).toBe(SKILL);
    });

    it('refuses a redirect to plain http without requesting it', async () => {
      const before = plain.requests.length;
      const refused = await refusal(get('/to-http'));
      expect(refused.status).toBe(422);
      expect(refused.message).toMatch(/redirects to a http: URL; only https redirects/);
      expect(plain.requests.length).toBe(before);
    });

    it('refuses a redirect to another scheme', async () => {
      expect(await refusal(get('/to-file'))).toMatchObject({ status: 422 });
    });

    it('stops after the redirect limit', async () => {
      const refused = await refusal(get('/loop', { maxRedirects: 3 }));
      expect(refused).toMatchObject({
        status: 502,
        message: expect.stringMatching(/more than 3 redirects/),
      });
    });

    it('refuses a redirect without a Location', async () => {
      expect(await refusal(get('/no-location'))).toMatchObject({ status: 502 });
    });

    it('refuses a body whose Content-Length is over the cap before reading it', async () => {
      expect(await refusal(get('/declared-huge'))).toMatchObject({ status: 413 });
    });

    it('refuses a streamed body once it passes the cap', async () => {
      expect(await refusal(get('/chunked-huge'))).toMatchObject({ status: 413 });
    });

    it('gives up on a server that never finishes', async () => {
      const started = Date.now();
      const refused = await refusal(get('/slow', { timeoutMs: 300 }));
      expect(refused).toMatchObject({
        status: 502,
        message: expect.stringMatching(/longer than 300 ms/),
      });
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('reports an error status as an upstream failure', async () => {
      expect(await refusal(get('/missing'))).toMatchObject({
        status: 502,
        message: expect.stringMatching(/answered 404/),
      });
    });

    it('refuses a server whose certificate is not trusted', async () => {
      const refused = await refusal(
        fetchPackage(
          parsePackageUrl(`${https.origin}/skill.mjs`),
          { ...network, fetch: createPinnedFetch() },
          limits,
        ),
      );
      expect(refused.status).toBe(502);
    });
  },
);

describe('package URLs', () => {
  it.each([
    ['http://example.org/skill.mjs', /only https: \(or data:\) URLs are accepted, not http:/],
    ['HTTP://example.org/skill.mjs', /not http:/],
    ['file:///etc/passwd', /not file:/],
    ['ftp://example.org/skill.mjs', /not ftp:/],
    ['javascript:alert(1)', /not javascript:/],
    ['ws://example.org/x', /not ws:/],
    ['//example.org/skill.mjs', /not a valid URL/],
    ['skill.mjs', /not a valid URL/],
    [' https://example.org/skill.mjs', /must not start or end with spaces/],
    ['https://example.org/skill.mjs ', /must not start or end with spaces/],
    ['https://user:pw@example.org/skill.mjs', /user name or password/],
    [`https://example.org/${'a'.repeat(3000)}`, /longer than 2048/],
  ])('refuses %s', (url, message) => {
    expect(() => parsePackageUrl(url)).toThrow(message);
  });

  it('accepts https and data: URLs', () => {
    expect(parsePackageUrl('https://example.org/a/skill.mjs#x')).toMatchObject({ kind: 'https' });
    expect(parsePackageUrl('DATA:,x')).toEqual({ kind: 'data', text: 'DATA:,x' });
  });

  it('never calls fetch for a data: URL', async () => {
    const network: HubNetwork = {
      fetch: () => Promise.reject(new Error('fetched')),
      resolve: () => Promise.reject(new Error('resolved')),
      allowPrivateHosts: false,
    };
    const bytes = await fetchPackage(parsePackageUrl('data:,hi'), network, DEFAULT_FETCH_LIMITS);
    expect(Buffer.from(bytes).toString()).toBe('hi');
  });
});
