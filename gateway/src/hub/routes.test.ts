import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttpApp } from '../http/app.ts';
import { createHostPolicy } from '../http/middleware/hosts.ts';
import { createOriginPolicy } from '../http/middleware/origins.ts';
import { unavailable } from '../errors.ts';
import { silentLogger } from '../observability/logger.ts';
import type { SkillCatalog } from '../skills/ports.ts';
import { rawRequest } from '../testing/fakes/raw-request.ts';
import { hubArea } from './area.ts';
import { createPinnedFetch } from './pinned-fetch.ts';
import {
  hasOpenssl,
  selfSignedCertificate,
  startHttpServer,
  startHttpsServer,
  type CountingServer,
} from './testing/https-fixture.ts';
import { createPackageJudge } from '../skills/ports.ts';
import { memoryCatalog, toyScanner, toyValidator } from './testing/memory-catalog.ts';

const GOOD = 'export const tools = [{ name: "weather_now" }];\n';
const FLAGGED = 'export const run = (s) => eval(s);\nfetch("https://x");\n';
const BLOCKED = "import 'child_process';\nexport const run = (s) => eval(s);\n";
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe.runIf(hasOpenssl())(
  'hub routes (skipped without openssl, which makes the test certificate)',
  () => {
    let server: Server;
    let port: number;
    let origin: CountingServer;
    let plain: CountingServer;
    let catalog: ReturnType<typeof memoryCatalog>;
    let catalogOpen = true;
    const files: Record<string, string> = {
      '/weather.mjs': GOOD,
      '/Tools/calc.py': 'def calc():\n    return 1\n',
      '/flagged.mjs': FLAGGED,
      '/blocked.mjs': BLOCKED,
      '/binary.mjs': '\u0000',
    };

    async function call(method: string, path: string, body?: unknown) {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    }
    const install = (body: Record<string, unknown>) => call('POST', '/hub/packages', body);

    beforeAll(async () => {
      const certificate = selfSignedCertificate();
      plain = await startHttpServer((_req, res) => res.end(GOOD));
      origin = await startHttpsServer(certificate, (req, res) => {
        const path = req.url ?? '/';
        if (path === '/latin1.mjs') return res.end(Buffer.from([0x65, 0xe9, 0x0a]));
        if (path === '/racer.mjs') {
          // A trusted write of the same name lands while the package downloads.
          void catalog
            .install({ name: 'racer', kind: 'mjs', source: GOOD, origin: 'trusted' })
            .then(() => res.end(GOOD));
          return res;
        }
        if (path === '/to-http')
          return res.writeHead(302, { location: `${plain.origin}/weather.mjs` }).end();
        const file = files[path];
        if (file === undefined) return res.writeHead(404).end();
        return res.end(file);
      });
      const area = hubArea({
        catalog: (): SkillCatalog => {
          if (!catalogOpen) throw unavailable('The skills catalog is starting');
          return catalog;
        },
        judge: createPackageJudge({ validate: toyValidator, scan: toyScanner }),
        fetch: createPinnedFetch({ ca: certificate.cert }),
        allowPrivateHosts: true,
        limits: { maxBytes: 4096, timeoutMs: 2_000 },
        logger: silentLogger(),
      });
      const app = createHttpApp({
        logger: silentLogger(),
        version: '0.0.0-test',
        apiKey: '',
        origins: createOriginPolicy({
          host: '127.0.0.1',
          port: () => port,
          extra: [],
          hosts: createHostPolicy({ bindHost: '127.0.0.1', corsOrigins: [], allowedHosts: [] }),
        }),
        hosts: createHostPolicy({ bindHost: '127.0.0.1', corsOrigins: [], allowedHosts: [] }),
        bodyLimitBytes: 64 * 1024,
        groups: [{ prefix: '/api/v1', routes: area.routes ?? [] }],
      });
      server = createServer(app);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await origin.close();
      await plain.close();
    });
    beforeEach(() => {
      catalog = memoryCatalog();
      catalogOpen = true;
    });

    describe('install', () => {
      it('installs from an https URL, naming it after the file, and lists it', async () => {
        const created = await install({ url: `${origin.origin}/weather.mjs`, tags: ['forecast'] });
        expect(created.status).toBe(200);
        expect(created.body).toMatchObject({
          name: 'weather',
          kind: 'mjs',
          enabled: true,
          tags: ['forecast'],
          origin: `${origin.origin}/weather.mjs`,
          sha256: sha256(GOOD),
          scan: { flagged: false, findings: [] },
          forced: false,
        });
        expect(await call('GET', '/hub/packages')).toEqual({
          status: 200,
          body: { available: true, packages: [expect.objectContaining({ name: 'weather' })] },
        });
        expect((await call('GET', '/hub/weather')).body).toMatchObject({
          name: 'weather',
          version: '0.0.0',
          tags: ['forecast'],
          enabled: true,
        });
      });

      it('takes the kind from a .py path, and a version', async () => {
        const created = await install({ url: `${origin.origin}/Tools/calc.py`, version: '1.2.0' });
        expect(created.body).toMatchObject({ name: 'calc', kind: 'py', version: '1.2.0' });
      });

      it('installs form B {name, url}, and from a data: URL', async () => {
        const url = `data:text/javascript;base64,${Buffer.from(GOOD).toString('base64')}`;
        const created = await call('POST', '/hub/install', { name: 'inline', url });
        expect(created.status).toBe(200);
        expect(created.body).toMatchObject({
          name: 'inline',
          origin: `data:sha256:${sha256(GOOD)}`,
        });
        expect((await call('POST', '/hub/install', { url })).body).toEqual({
          detail: 'body.name: Invalid input: expected string, received undefined',
        });
      });

      it('verifies the publisher checksum, in either case', async () => {
        const url = `${origin.origin}/weather.mjs`;
        const created = await install({ url, expected_checksum: sha256(GOOD).toUpperCase() });
        expect(created.status).toBe(200);
      });

      it('fails on a checksum mismatch before anything reaches the catalog', async () => {
        const forged = sha256(`${GOOD} `);
        const refused = await install({
          url: `${origin.origin}/weather.mjs`,
          expected_checksum: forged,
          force: true,
        });
        expect(refused.status).toBe(422);
        expect(refused.body.detail).toBe(
          `expected_checksum: the fetched package's SHA-256 is ${sha256(GOOD)}, not ${forged}; nothing was installed`,
        );
        expect(catalog.installs).toEqual([]);
      });

      it.each([
        ['short', 'abc'],
        ['not hex', 'g'.repeat(64)],
        ['with a prefix', `sha256:${'a'.repeat(64)}`],
        ['too long', 'a'.repeat(65)],
      ])('refuses a malformed checksum (%s) with 422 before fetching', async (_, checksum) => {
        const before = origin.requests.length;
        const refused = await install({
          url: `${origin.origin}/weather.mjs`,
          expected_checksum: checksum,
        });
        expect(refused.status).toBe(422);
        expect(refused.body.detail).toMatch(/^body\.expected_checksum: must be a SHA-256 digest/);
        expect(origin.requests.length).toBe(before);
      });

      it('blocks a flagged package, naming the top findings', async () => {
        const refused = await install({ url: `${origin.origin}/flagged.mjs` });
        expect(refused.status).toBe(422);
        expect(refused.body.detail).toBe(
          'the package scanner flagged flagged: dynamic.eval (high, line 1): eval of a string; network.fetch (low, line 2): network call; nothing was installed (force overrides the scanner)',
        );
        expect(catalog.installs).toEqual([]);
      });

      it('installs a flagged package with force, saying so', async () => {
        const created = await install({ url: `${origin.origin}/flagged.mjs`, force: true });
        expect(created.status).toBe(200);
        expect(created.body).toMatchObject({ forced: true, scan: { flagged: true } });
      });

      it('force does not override the layer-1 rejection', async () => {
        const refused = await install({ url: `${origin.origin}/blocked.mjs`, force: true });
        expect(refused.status).toBe(422);
        expect(refused.body.detail).toMatch(/child_process/);
        expect((await call('GET', '/hub/packages')).body.packages).toEqual([]);
      });

      it('refuses plain http with 422 before any request is made', async () => {
        const refused = await install({ url: `${plain.origin}/weather.mjs`, force: true });
        expect(refused).toEqual({
          status: 422,
          body: { detail: 'url: only https: (or data:) URLs are accepted, not http:' },
        });
        expect(plain.requests).toHaveLength(0);
      });

      it('refuses an https URL that redirects to plain http, without following it', async () => {
        const refused = await install({ url: `${origin.origin}/to-http`, name: 'sneaky' });
        expect(refused.status).toBe(422);
        expect(refused.body.detail).toMatch(/redirects to a http: URL/);
        expect(plain.requests).toHaveLength(0);
        expect(catalog.installs).toEqual([]);
      });

      it.each([
        'file:///etc/passwd',
        'ftp://127.0.0.1/x.mjs',
        'javascript:1',
        ' https://x.org/a.mjs',
      ])('refuses the URL %j', async (url) => {
        const refused = await install({ url, name: 'x' });
        expect(refused.status).toBe(422);
        expect(refused.body.detail).toMatch(/^url: /);
      });

      it('refuses a package that is not UTF-8 text, or empty', async () => {
        expect(await install({ url: `${origin.origin}/latin1.mjs` })).toEqual({
          status: 422,
          body: { detail: 'url: the package is not UTF-8 text' },
        });
        expect((await install({ url: 'data:,', name: 'empty' })).body).toEqual({
          detail: 'url: the package is empty',
        });
      });

      it('refuses an oversized data: URL with 413', async () => {
        const url = `data:;base64,${Buffer.alloc(8192, 'a').toString('base64')}`;
        expect((await install({ url, name: 'big' })).status).toBe(413);
      });

      it('refuses a replayed install of an installed name with 409, leaving it as it was', async () => {
        const url = `${origin.origin}/weather.mjs`;
        expect((await install({ url, version: '1.0.0' })).status).toBe(200);
        const replayed = await install({ url, version: '2.0.0' });
        expect(replayed).toEqual({
          status: 409,
          body: {
            detail: 'name: weather is already installed; remove it first to install another',
          },
        });
        expect((await call('GET', '/hub/weather')).body.version).toBe('1.0.0');
      });

      it('refuses two concurrent installs of one name: one wins', async () => {
        const url = `${origin.origin}/weather.mjs`;
        const results = await Promise.all([install({ url }), install({ url }), install({ url })]);
        expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
      });

      it('does not overwrite a skill written under the same name during the download', async () => {
        const refused = await install({ url: `${origin.origin}/racer.mjs` });
        expect(refused.status).toBe(409);
        expect(catalog.get('racer')?.origin).toBe('trusted');
        expect(catalog.installs).toEqual(['racer']);
      });

      it('does not overwrite a skill the hub did not install', async () => {
        await catalog.install({ name: 'mine', kind: 'mjs', source: GOOD, origin: 'trusted' });
        const refused = await install({ url: `${origin.origin}/weather.mjs`, name: 'mine' });
        expect(refused.status).toBe(409);
        expect(catalog.get('mine')?.origin).toBe('trusted');
      });

      it.each([
        '../evil',
        '..',
        'a/b',
        'a\\b',
        '%2e%2e',
        'a%2fb',
        'Weather',
        'wеather',
        'x'.repeat(33),
        'status',
        '',
      ])('refuses the name %j before fetching', async (name) => {
        const before = origin.requests.length;
        const refused = await install({ url: `${origin.origin}/weather.mjs`, name });
        expect(refused.status).toBe(422);
        expect(refused.body.detail).toMatch(/^body\.name: must be 1 to 32 lowercase/);
        expect(origin.requests.length).toBe(before);
      });

      it('refuses unknown fields and wrong types', async () => {
        const url = `${origin.origin}/weather.mjs`;
        expect((await install({ url, path: '/etc' })).body).toEqual({
          detail: 'body: unknown field(s) path',
        });
        expect((await install({ url, force: 'yes' })).status).toBe(422);
        expect((await install({ url, tags: ['ok', 'a b'] })).body.detail).toMatch(
          /^body\.tags\.1: /,
        );
        expect((await install({ url, version: '../1' })).body.detail).toMatch(/^body\.version: /);
        expect((await install({ url, kind: 'sh' })).body.detail).toMatch(/^body\.kind: /);
        expect(catalog.installs).toEqual([]);
      });

      it('answers 503 while the catalog is starting, and lists nothing as unavailable', async () => {
        catalogOpen = false;
        expect((await install({ url: `${origin.origin}/weather.mjs` })).status).toBe(503);
        expect(await call('GET', '/hub/packages')).toEqual({
          status: 200,
          body: { available: false, packages: [] },
        });
        expect((await call('GET', '/hub/status')).body).toEqual({
          available: false,
          total: 0,
          enabled: 0,
        });
      });
    });

    describe('manage', () => {
      beforeEach(async () => {
        await install({ url: `${origin.origin}/weather.mjs`, tags: ['forecast', 'outdoor'] });
        await install({ url: `${origin.origin}/Tools/calc.py`, tags: ['math'] });
        await catalog.install({ name: 'local', kind: 'mjs', source: GOOD, origin: 'trusted' });
      });

      it('searches installed hub packages by name and tag only', async () => {
        expect((await call('GET', '/hub/search?q=FORE')).body).toMatchObject({
          query: 'FORE',
          count: 1,
          packages: [{ name: 'weather' }],
        });
        expect((await call('GET', '/hub/search?q=calc')).body.count).toBe(1);
        expect((await call('GET', '/hub/search?q=local')).body.count).toBe(0);
        expect((await call('GET', '/hub/search?q=')).status).toBe(422);
        expect((await call('GET', '/hub/search?q=a&q=b')).status).toBe(422);
        expect((await call('GET', `/hub/search?q=${'a'.repeat(201)}`)).status).toBe(422);
      });

      it('disables and enables a package, and counts it in /hub/status', async () => {
        expect(await call('PATCH', '/hub/weather', { enabled: false })).toMatchObject({
          status: 200,
          body: { name: 'weather', enabled: false },
        });
        expect((await call('GET', '/hub/status')).body).toEqual({
          available: true,
          total: 2,
          enabled: 1,
        });
        expect((await call('PATCH', '/hub/weather', { enabled: true })).body.enabled).toBe(true);
        expect((await call('PATCH', '/hub/weather', { enabled: 'no' })).status).toBe(422);
        expect((await call('PATCH', '/hub/weather', {})).status).toBe(422);
      });

      it('uninstalls a package; a second delete is 404', async () => {
        expect(await call('DELETE', '/hub/weather')).toEqual({
          status: 200,
          body: { name: 'weather', removed: true },
        });
        expect((await call('DELETE', '/hub/weather')).status).toBe(404);
        expect((await call('GET', '/hub/weather')).status).toBe(404);
      });

      it('never reaches a skill the hub did not install', async () => {
        expect((await call('GET', '/hub/local')).status).toBe(404);
        expect((await call('PATCH', '/hub/local', { enabled: false })).status).toBe(404);
        expect((await call('DELETE', '/hub/local')).status).toBe(404);
        expect(catalog.get('local')?.state).toBe('active');
      });

      it.each(['/hub/..%2f..%2fetc', '/hub/%2e%2e', '/hub/a%5cb', '/hub/WEATHER', '/hub/we%00'])(
        'refuses the traversing or malformed name in %s with 422',
        async (path) => {
          const response = await rawRequest(port, `/api/v1${path}`, { method: 'DELETE' });
          expect(response.status).toBe(422);
          expect(catalog.get('weather')).toBeDefined();
        },
      );
    });

    describe('scan', () => {
      it('scans code without installing it', async () => {
        const scanned = await call('POST', '/hub/scan', { code: FLAGGED });
        expect(scanned.status).toBe(200);
        expect(scanned.body).toMatchObject({
          flagged: true,
          findings: [{ rule: 'dynamic.eval' }, { rule: 'network.fetch' }],
        });
        expect(catalog.installs).toEqual([]);
      });

      it('refuses empty, missing, non-string or oversized code', async () => {
        expect((await call('POST', '/hub/scan', { code: '' })).status).toBe(422);
        expect((await call('POST', '/hub/scan', {})).status).toBe(422);
        expect((await call('POST', '/hub/scan', { code: 42 })).status).toBe(422);
        expect((await call('POST', '/hub/scan', { code: 'x', kind: 'sh' })).status).toBe(422);
        expect((await call('POST', '/hub/scan', { code: 'x'.repeat(70_000) })).status).toBe(413);
      });
    });
  },
);
