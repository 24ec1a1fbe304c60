import { describe, expect, it } from 'vitest';
import type { PinnedFetch } from '../../http/outbound/pinned-fetch.ts';
import type { CheckedAddress, HostResolver } from '../../http/outbound/resolver.ts';
import { PUBLIC_V4 } from '../../hub/testing/address-cases.ts';
import {
  createSkillFetch,
  declaredHostProblem,
  SkillFetchError,
  type RefusedEgress,
  type SkillEgressGrant,
  type SkillFetchLimits,
} from './skill-fetch.ts';

const GRANT: SkillEgressGrant = {
  skill: 'weather',
  network: true,
  hosts: ['api.weather.example', 'tiles.weather.example:8443'],
};

/** A network of recorded answers: names map to addresses, URLs to responses. */
function network(
  names: Record<string, string[]>,
  answers: Record<string, () => Response> = {},
  limits: Partial<SkillFetchLimits> = {},
) {
  const connected: { url: string; address: CheckedAddress; method: string; source: string }[] = [];
  const refused: RefusedEgress[] = [];
  const resolved: string[] = [];
  let source = '';
  const resolve: HostResolver = (hostname) => {
    resolved.push(hostname);
    const addresses = names[hostname];
    if (!addresses) return Promise.reject(Object.assign(new Error('nx'), { code: 'ENOTFOUND' }));
    return Promise.resolve(
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  };
  const fetch: PinnedFetch = (url, address, init) => {
    connected.push({ url: url.href, address, method: init.method ?? 'GET', source });
    const answer = answers[url.href];
    return Promise.resolve(answer ? answer() : new Response('not found', { status: 404 }));
  };
  const skillFetch = createSkillFetch({
    fetch,
    resolve,
    attribute: async (label, work) => {
      source = label;
      try {
        return await work();
      } finally {
        source = '';
      }
    },
    refused: (entry) => refused.push(entry),
    limits,
  });
  return { skillFetch, connected, refused, resolved };
}

async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    expect(error).toBeInstanceOf(SkillFetchError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('the gateway fetches for a skill only what its manifest declares', () => {
  it('fetches a declared host at its checked public address, attributed to the skill', async () => {
    const { skillFetch, connected, refused } = network(
      { 'api.weather.example': [PUBLIC_V4] },
      { 'https://api.weather.example/now': () => new Response('sunny', { status: 200 }) },
    );
    const reply = await skillFetch(GRANT, { url: 'https://api.weather.example/now' });
    expect(reply).toMatchObject({ status: 200, url: 'https://api.weather.example/now' });
    expect(Buffer.from(reply.body, 'base64').toString()).toBe('sunny');
    expect(connected).toEqual([
      {
        url: 'https://api.weather.example/now',
        address: { address: PUBLIC_V4, family: 4 },
        method: 'GET',
        source: 'skill:weather',
      },
    ]);
    expect(refused).toEqual([]);
  });

  it.each([
    ['https://evil.example/', /evil\.example is not among the hosts skill weather declares/],
    ['https://api.weather.example:8443/', /not among the hosts/], // declared for 443 only
    ['https://tiles.weather.example/', /not among the hosts/], // declared for 8443 only
    ['http://api.weather.example/', /only https URLs/],
    ['https://user:pw@api.weather.example/', /credentials/],
    ['https://93.184.216.34/', /an address, not a declared host name/],
    ['https://[::1]/', /an address, not a declared host name/],
    ['file:///etc/passwd', /only https URLs/],
    ['not a url', /not a valid absolute URL/],
  ])('%s is refused before anything is resolved, and the refusal recorded', async (url, why) => {
    const { skillFetch, connected, refused, resolved } = network({
      'api.weather.example': [PUBLIC_V4],
      'tiles.weather.example': [PUBLIC_V4],
      'evil.example': [PUBLIC_V4],
    });
    expect(await refusal(skillFetch(GRANT, { url }))).toMatch(why);
    expect(resolved).toEqual([]);
    expect(connected).toEqual([]);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ source: 'skill:weather', method: 'GET' });
    expect(refused[0]!.reason).toMatch(why);
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['fd12:3456::1', 'private'],
  ])(
    'a declared name that resolves to %s (%s) is refused, never connected',
    async (address, kind) => {
      const { skillFetch, connected, refused } = network({
        'api.weather.example': [PUBLIC_V4, address],
      });
      const why = await refusal(skillFetch(GRANT, { url: 'https://api.weather.example/now' }));
      expect(why).toContain(`api.weather.example is a name for a ${kind}`);
      expect(why).toContain('skills reach public hosts only');
      expect(connected).toEqual([]);
      expect(refused).toHaveLength(1);
    },
  );

  it('a skill without network, or with network and no hosts, gets a refusal saying which', async () => {
    const { skillFetch, connected, refused } = network({ 'api.weather.example': [PUBLIC_V4] });
    expect(
      await refusal(
        skillFetch({ ...GRANT, network: false }, { url: 'https://api.weather.example/' }),
      ),
    ).toMatch(/has no network access \(its skill\.json sets network: false\)/);
    expect(
      await refusal(skillFetch({ ...GRANT, hosts: [] }, { url: 'https://api.weather.example/' })),
    ).toMatch(/declares no hosts \(skill\.json "hosts" is empty\): no network/);
    expect(connected).toEqual([]);
    expect(refused).toHaveLength(2);
  });

  it.each([
    ['https://evil.example/steal', /evil\.example is not among the hosts/],
    ['https://internal.weather.example/', /not among the hosts/],
    ['http://api.weather.example/plain', /only https URLs/],
    ['https://127.0.0.1/', /an address, not a declared host name/],
  ])('a redirect to %s is refused before the second hop connects', async (location, why) => {
    const { skillFetch, connected, refused } = network(
      { 'api.weather.example': [PUBLIC_V4], 'evil.example': [PUBLIC_V4] },
      {
        'https://api.weather.example/go': () =>
          new Response(null, { status: 302, headers: { location } }),
      },
    );
    expect(await refusal(skillFetch(GRANT, { url: 'https://api.weather.example/go' }))).toMatch(
      why,
    );
    expect(connected.map((hop) => hop.url)).toEqual(['https://api.weather.example/go']);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.url).toBe(new URL(location).href);
  });

  it('a redirect to a declared host whose name is private now is refused too', async () => {
    const { skillFetch, connected } = network(
      { 'api.weather.example': [PUBLIC_V4], 'tiles.weather.example': ['10.0.0.7'] },
      {
        'https://api.weather.example/go': () =>
          new Response(null, {
            status: 307,
            headers: { location: 'https://tiles.weather.example:8443/x' },
          }),
      },
    );
    expect(await refusal(skillFetch(GRANT, { url: 'https://api.weather.example/go' }))).toMatch(
      /tiles\.weather\.example is a name for a private address/,
    );
    expect(connected).toHaveLength(1);
  });

  it('follows a redirect between declared hosts, dropping credentials across origins', async () => {
    const { skillFetch, connected } = network(
      { 'api.weather.example': [PUBLIC_V4], 'tiles.weather.example': [PUBLIC_V4] },
      {
        'https://api.weather.example/go': () =>
          new Response(null, {
            status: 303,
            headers: { location: 'https://tiles.weather.example:8443/x' },
          }),
        'https://tiles.weather.example:8443/x': () => new Response('tile'),
      },
    );
    const reply = await skillFetch(GRANT, {
      url: 'https://api.weather.example/go',
      method: 'POST',
      body: Buffer.from('q').toString('base64'),
      headers: [['authorization', 'Bearer t']],
    });
    expect(reply).toMatchObject({ status: 200, redirected: true });
    expect(connected.map((hop) => [hop.url, hop.method])).toEqual([
      ['https://api.weather.example/go', 'POST'],
      ['https://tiles.weather.example:8443/x', 'GET'],
    ]);
  });

  it('caps the response, the request body and the redirects', async () => {
    const big = () => new Response('x'.repeat(2048));
    const declaredBig = () =>
      new Response('x', { headers: { 'content-length': String(10 * 1024 * 1024) } });
    const loop = () =>
      new Response(null, { status: 302, headers: { location: 'https://api.weather.example/l' } });
    const { skillFetch } = network(
      { 'api.weather.example': [PUBLIC_V4] },
      {
        'https://api.weather.example/big': big,
        'https://api.weather.example/declared': declaredBig,
        'https://api.weather.example/l': loop,
      },
      { maxResponseBytes: 1024, maxRequestBytes: 16, maxRedirects: 3 },
    );
    expect(await refusal(skillFetch(GRANT, { url: 'https://api.weather.example/big' }))).toMatch(
      /larger than 1024 bytes/,
    );
    expect(
      await refusal(skillFetch(GRANT, { url: 'https://api.weather.example/declared' })),
    ).toMatch(/larger than 1024 bytes/);
    expect(
      await refusal(
        skillFetch(GRANT, {
          url: 'https://api.weather.example/post',
          method: 'POST',
          body: Buffer.alloc(17).toString('base64'),
        }),
      ),
    ).toMatch(/request body exceeds 16 bytes/);
    expect(await refusal(skillFetch(GRANT, { url: 'https://api.weather.example/l' }))).toMatch(
      /more than 3 redirects/,
    );
  });

  it('a fetch that does not answer in time is refused at the time limit', async () => {
    const skillFetch = createSkillFetch({
      resolve: () => Promise.resolve([{ address: PUBLIC_V4, family: 4 }]),
      fetch: (_url, _address, init) =>
        new Promise((_resolve, reject) =>
          init.signal.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
      attribute: (_source, work) => work(),
      refused: () => undefined,
      limits: { timeoutMs: 100 },
    });
    expect(await refusal(skillFetch(GRANT, { url: 'https://api.weather.example/' }))).toMatch(
      /longer than 100 ms/,
    );
  });

  it('drops the headers the gateway owns and refuses malformed ones', async () => {
    const seen: Record<string, string>[] = [];
    const skillFetch = createSkillFetch({
      resolve: () => Promise.resolve([{ address: PUBLIC_V4, family: 4 }]),
      fetch: (_url, _address, init) => {
        seen.push(init.headers);
        return Promise.resolve(new Response('ok'));
      },
      attribute: (_source, work) => work(),
      refused: () => undefined,
    });
    await skillFetch(GRANT, {
      url: 'https://api.weather.example/',
      headers: { Host: 'metadata.google.internal', Accept: 'text/plain', Connection: 'close' },
    });
    expect(seen).toEqual([{ accept: 'text/plain' }]);
    expect(
      await refusal(
        skillFetch(GRANT, { url: 'https://api.weather.example/', headers: [['x', 'a\r\nb']] }),
      ),
    ).toMatch(/headers must be/);
  });
});

describe('declared hosts', () => {
  it.each(['api.example.com', 'a.b.example.org:8443', 'x1.example'])('%s is a host', (host) => {
    expect(declaredHostProblem(host)).toBeUndefined();
  });
  it.each([
    '127.0.0.1',
    '*.example.com',
    'localhost',
    'Api.Example.com',
    'example.com:0',
    'example.com:70000',
    'https://example.com',
    'example.com/path',
    '',
  ])('%s is not', (host) => {
    expect(declaredHostProblem(host)).toBeDefined();
  });
});
