import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HearthError } from '../errors.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';
import { addressProblem } from './address-policy.ts';
import { DEFAULT_FETCH_LIMITS, fetchPackage, type HubNetwork } from './fetch-package.ts';
import type { CheckedAddress, HostResolver } from './host-resolver.ts';
import { parsePackageUrl } from './package-url.ts';
import { createPinnedFetch, type PinnedFetch } from './pinned-fetch.ts';
import {
  hasOpenssl,
  selfSignedCertificate,
  startHttpsServer,
  TEST_PACKAGE_HOST,
  type CountingServer,
} from './testing/https-fixture.ts';
import { ALLOWED_ADDRESSES, PUBLIC_V4, REFUSED_ADDRESSES } from './testing/address-cases.ts';

const SKILL = 'export function hi() {\n  return "hi";\n}\n';

async function refusal(work: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await work;
  } catch (error) {
    if (error instanceof HearthError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

/** A network whose fetch and resolver only record what they were asked. */
function recordingNetwork(names: Record<string, string[]> = {}) {
  const fetched: { url: string; address: CheckedAddress }[] = [];
  const resolved: string[] = [];
  const network: HubNetwork = {
    fetch: (url, address) => {
      fetched.push({ url: url.href, address });
      return Promise.resolve(new Response(SKILL));
    },
    resolve: (hostname) => {
      resolved.push(hostname);
      const addresses = names[hostname];
      if (!addresses) return Promise.reject(Object.assign(new Error('nx'), { code: 'ENOTFOUND' }));
      return Promise.resolve(
        addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      );
    },
    allowPrivateHosts: false,
  };
  return { network, fetched, resolved };
}

describe('which addresses a hub download may connect to', () => {
  it.each(REFUSED_ADDRESSES)('refuses %s (%s)', (address, kind) => {
    expect(addressProblem(address, false)).toContain(kind);
  });

  it.each(ALLOWED_ADDRESSES)('allows public unicast %s', (address) => {
    expect(addressProblem(address, false)).toBeUndefined();
  });

  it('the opt-in admits loopback, private, link-local and CGNAT hosts, never unspecified or multicast', () => {
    for (const address of ['127.0.0.1', '10.0.0.1', '192.168.0.2', 'fe80::1', '100.64.1.1', '::1'])
      expect(addressProblem(address, true)).toBeUndefined();
    for (const address of ['0.0.0.0', '::', '224.0.0.1', 'ff02::1', '255.255.255.255'])
      expect(addressProblem(address, true)).toBeDefined();
  });
});

describe('hub downloads refuse private hosts before connecting', () => {
  it.each([
    ['https://127.0.0.1/skill.mjs'],
    ['https://2130706433/skill.mjs'], // decimal
    ['https://0177.0.0.1/skill.mjs'], // octal
    ['https://0x7f.0.0.1/skill.mjs'], // hex
    ['https://0x7f000001/skill.mjs'],
    ['https://127.1/skill.mjs'], // short form
    ['https://[::ffff:127.0.0.1]/skill.mjs'], // IPv4-mapped IPv6
    ['https://[::1]/skill.mjs'],
    ['https://[0:0:0:0:0:0:0:1]/skill.mjs'],
    ['https://0/skill.mjs'],
    ['https://169.254.169.254/latest/meta-data/'], // cloud metadata
    ['https://10.0.0.1:8443/skill.mjs'],
    ['https://[fe80::1]/skill.mjs'],
  ])('%s: 422, nothing resolved or fetched', async (url) => {
    const { network, fetched, resolved } = recordingNetwork();
    const refused = await refusal(
      fetchPackage(parsePackageUrl(url), network, DEFAULT_FETCH_LIMITS),
    );
    expect(refused.status).toBe(422);
    expect(refused.message).toMatch(/hub downloads go to public hosts only/);
    expect(refused.message).toMatch(/hub_allow_private_hosts/);
    expect(fetched).toEqual([]);
    expect(resolved).toEqual([]);
  });

  it('a name that resolves to 127.0.0.1 is refused, naming the host', async () => {
    const { network, fetched } = recordingNetwork({ 'evil.example': ['127.0.0.1'] });
    const refused = await refusal(
      fetchPackage(parsePackageUrl('https://evil.example/s.mjs'), network, DEFAULT_FETCH_LIMITS),
    );
    expect(refused).toEqual({
      status: 422,
      message: expect.stringContaining(
        'evil.example is a name for a loopback address (127.0.0.1)',
      ) as string,
    });
    expect(fetched).toEqual([]);
  });

  it('a name with one private address among public ones is refused', async () => {
    const { network, fetched } = recordingNetwork({
      'mixed.example': [PUBLIC_V4, '::ffff:192.168.0.1'],
    });
    const refused = await refusal(
      fetchPackage(parsePackageUrl('https://mixed.example/s.mjs'), network, DEFAULT_FETCH_LIMITS),
    );
    expect(refused.status).toBe(422);
    expect(refused.message).toMatch(/private address \(192\.168\.0\.1\)/);
    expect(fetched).toEqual([]);
  });

  it('a public name is resolved once and the fetch gets exactly the checked address', async () => {
    let answers = 0;
    const { network, fetched } = recordingNetwork();
    // A rebinding resolver: public the first time, loopback afterwards.
    network.resolve = () =>
      Promise.resolve([{ address: answers++ === 0 ? PUBLIC_V4 : '127.0.0.1', family: 4 }]);
    const bytes = await fetchPackage(
      parsePackageUrl('https://pkg.example/s.mjs'),
      network,
      DEFAULT_FETCH_LIMITS,
    );
    expect(Buffer.from(bytes).toString()).toBe(SKILL);
    expect(answers).toBe(1);
    expect(fetched).toEqual([
      { url: 'https://pkg.example/s.mjs', address: { address: PUBLIC_V4, family: 4 } },
    ]);
  });

  it('a name that does not resolve is a 502', async () => {
    const { network } = recordingNetwork();
    expect(
      await refusal(
        fetchPackage(parsePackageUrl('https://nowhere.example/'), network, DEFAULT_FETCH_LIMITS),
      ),
    ).toEqual({ status: 502, message: 'nowhere.example could not be resolved (ENOTFOUND)' });
  });

  it('a resolver that never answers is bounded by the download timeout', async () => {
    const { network } = recordingNetwork();
    network.resolve = () => new Promise(() => {});
    const refused = await refusal(
      fetchPackage(parsePackageUrl('https://slow.example/'), network, {
        ...DEFAULT_FETCH_LIMITS,
        timeoutMs: 200,
      }),
    );
    expect(refused.status).toBe(502);
    expect(refused.message).toMatch(/longer than 200 ms/);
  });
});

describe.runIf(hasOpenssl())(
  'the pinned connection and redirects (skipped without openssl, which makes the test certificate)',
  () => {
    let server: CountingServer;
    let certificate: { key: string; cert: string };
    let port: number;
    beforeAll(async () => {
      certificate = selfSignedCertificate();
      server = await startHttpsServer(certificate, (req, res) => {
        if (req.url === '/skill.mjs') return res.end(SKILL);
        if (req.url === '/to-loopback')
          return res.writeHead(302, { location: `https://127.0.0.1:${port}/skill.mjs` }).end();
        if (req.url === '/to-internal')
          return res.writeHead(301, { location: 'https://internal.example/skill.mjs' }).end();
        if (req.url === '/to-mapped')
          return res.writeHead(307, { location: `https://[::ffff:127.0.0.1]:${port}/x` }).end();
        return res.writeHead(404).end();
      });
      port = Number(new URL(server.origin).port);
    }, 30_000);
    afterAll(() => server?.close());

    it('connects to the given address, not to what DNS says, and still checks the certificate', async () => {
      const fetch = createPinnedFetch({ ca: certificate.cert });
      const init = () => ({ signal: AbortSignal.timeout(5_000), headers: {} });
      // No DNS server knows packages.hearth.test: an answer proves the connection used the pin.
      const response = await fetch(
        new URL(`https://${TEST_PACKAGE_HOST}:${port}/skill.mjs`),
        { address: '127.0.0.1', family: 4 },
        init(),
      );
      expect(await response.text()).toBe(SKILL);
      // A name the certificate does not hold fails TLS even though the address is right.
      await expect(
        fetch(
          new URL(`https://other.hearth.test:${port}/skill.mjs`),
          { address: '127.0.0.1', family: 4 },
          init(),
        ),
      ).rejects.toThrow();
    });

    /**
     * The "public" package host is the local test server: the resolver says it is public, and
     * the fetch connects to the local server whatever address it was handed (recording it).
     */
    function publicHostNetwork(names: Record<string, string>) {
      const real = createPinnedFetch({ ca: certificate.cert });
      const addresses: string[] = [];
      const fetch: PinnedFetch = (url, address, init) => {
        addresses.push(`${url.hostname} -> ${address.address}`);
        return real(url, { address: '127.0.0.1', family: 4 }, init);
      };
      const resolve: HostResolver = (hostname) =>
        names[hostname]
          ? Promise.resolve([{ address: names[hostname], family: 4 }])
          : Promise.reject(Object.assign(new Error('nx'), { code: 'ENOTFOUND' }));
      const network: HubNetwork = { fetch, resolve, allowPrivateHosts: false };
      return { network, addresses };
    }

    it('follows a redirect between public hosts, checking each hop', async () => {
      const { network, addresses } = publicHostNetwork({ [TEST_PACKAGE_HOST]: PUBLIC_V4 });
      const bytes = await fetchPackage(
        parsePackageUrl(`https://${TEST_PACKAGE_HOST}:${port}/skill.mjs`),
        network,
        DEFAULT_FETCH_LIMITS,
      );
      expect(Buffer.from(bytes).toString()).toBe(SKILL);
      expect(addresses).toEqual([`${TEST_PACKAGE_HOST} -> ${PUBLIC_V4}`]);
    });

    it.each([
      ['/to-loopback', /127\.0\.0\.1:\d+ is a loopback address/],
      ['/to-internal', /internal\.example is a name for a private address \(10\.9\.8\.7\)/],
      ['/to-mapped', /is a loopback address \(127\.0\.0\.1\)/],
    ])(
      'a redirect %s to a private host is refused before the second hop connects',
      async (path, why) => {
        const { network, addresses } = publicHostNetwork({
          [TEST_PACKAGE_HOST]: PUBLIC_V4,
          'internal.example': '10.9.8.7',
        });
        const refused = await refusal(
          fetchPackage(
            parsePackageUrl(`https://${TEST_PACKAGE_HOST}:${port}${path}`),
            network,
            DEFAULT_FETCH_LIMITS,
          ),
        );
        expect(refused.status).toBe(422);
        expect(refused.message).toMatch(why);
        expect(addresses).toHaveLength(1);
      },
    );
  },
);

describe('POST /hub/packages with the default configuration', () => {
  let t: TestGateway;
  const resolved: string[] = [];
  beforeAll(async () => {
    t = await startTestGateway({
      hubNetwork: {
        resolve: (hostname) => {
          resolved.push(hostname);
          return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
        },
        fetch: () => Promise.reject(new Error('must not connect')),
      },
    });
    await t.gateway.whenReady();
  }, 60_000);
  afterAll(() => t?.close());

  const install = async (url: string) => {
    const response = await fetch(`${t.url}/api/v1/hub/packages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url, name: 'probe' }),
    });
    return { status: response.status, body: (await response.json()) as { detail?: string } };
  };

  it.each([
    'https://2130706433/skill.mjs',
    'https://[::ffff:127.0.0.1]/skill.mjs',
    'https://localtest.example/skill.mjs',
  ])('refuses %s with 422 and installs nothing; the gateway stays healthy', async (url) => {
    const refused = await install(url);
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toMatch(/loopback address \(127\.0\.0\.1\)/);
    const listed = await fetch(`${t.url}/api/v1/hub/packages`);
    expect(((await listed.json()) as { packages: unknown[] }).packages).toEqual([]);
    expect((await fetch(`${t.url}/health`)).status).toBe(200);
  });
});
