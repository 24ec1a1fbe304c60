import { describe, expect, it } from 'vitest';
import { confirmLocalHosts, isPrivateAddress, type ResolveHost } from './confirm-local-hosts.ts';

/** A resolver over a fixed table; no real DNS. */
const table =
  (names: Record<string, readonly string[]>): ResolveHost =>
  (hostname) => {
    const addresses = names[hostname];
    return addresses
      ? Promise.resolve(addresses)
      : Promise.reject(new Error(`getaddrinfo ENOTFOUND ${hostname}`));
  };

const resolve = table({
  'ollama-box': ['127.0.0.1', '::1'],
  ollama: ['172.18.0.3'],
  qdrant: ['fd12:3456::7'],
  'gpu.example.com': ['203.0.113.9'],
  'split.example.com': ['127.0.0.1', '203.0.113.9'],
});

describe('confirmLocalHosts: exempt by resolved address, never by name', () => {
  it('exempts a name that resolves to loopback only, and loopback literals', async () => {
    const outcome = await confirmLocalHosts({
      candidates: ['http://ollama-box:11434', 'http://127.0.0.1:11434', 'http://localhost:6333'],
      trustPrivate: false,
      resolve,
    });
    expect(outcome.local).toEqual([
      'http://ollama-box:11434',
      'http://127.0.0.1:11434',
      'http://localhost:6333',
    ]);
    expect(outcome.audited).toEqual([]);
  });

  it('audits a configured runtime that resolves off the machine, whatever it is called', async () => {
    const outcome = await confirmLocalHosts({
      candidates: [
        'http://gpu.example.com:11434',
        'http://split.example.com:11434',
        'http://203.0.113.9:6333',
      ],
      trustPrivate: true,
      resolve,
    });
    expect(outcome.local).toEqual([]);
    expect(outcome.audited.map((a) => [a.entry, a.addresses])).toEqual([
      ['http://gpu.example.com:11434', ['203.0.113.9']],
      ['http://split.example.com:11434', ['127.0.0.1', '203.0.113.9']],
      ['http://203.0.113.9:6333', ['203.0.113.9']],
    ]);
  });

  it('exempts private addresses only when the owner confirmed them', async () => {
    const candidates = ['http://ollama:11434', 'http://qdrant:6333', 'http://10.1.2.3:6333'];
    const unconfirmed = await confirmLocalHosts({ candidates, trustPrivate: false, resolve });
    expect(unconfirmed.local).toEqual([]);
    expect(unconfirmed.audited[0]?.reason).toContain('security.trust_private_services');
    const confirmed = await confirmLocalHosts({ candidates, trustPrivate: true, resolve });
    expect(confirmed.local).toEqual(candidates);
  });

  it('audits a name that does not resolve, or not in time', async () => {
    const outcome = await confirmLocalHosts({
      candidates: ['http://nowhere:1', 'http://slow:2'],
      trustPrivate: true,
      resolve: (hostname) =>
        hostname === 'slow' ? new Promise(() => undefined) : resolve(hostname),
      timeoutMs: 50,
    });
    expect(outcome.local).toEqual([]);
    expect(outcome.audited.map((a) => a.reason)).toEqual([
      'not resolved: getaddrinfo ENOTFOUND nowhere',
      'not resolved: no answer within 50 ms',
    ]);
  });

  it.each([
    ['10.0.0.1', true],
    ['172.31.255.255', true],
    ['192.168.1.2', true],
    ['fd00::5', true],
    ['::ffff:10.0.0.1', true],
    ['172.32.0.1', false],
    ['100.64.0.1', false],
    ['169.254.169.254', false],
    ['8.8.8.8', false],
    ['2001:db8::1', false],
  ])('%s is private: %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});
