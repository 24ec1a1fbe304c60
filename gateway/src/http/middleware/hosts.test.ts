import { describe, expect, it } from 'vitest';
import { createHostPolicy } from './hosts.ts';

describe('createHostPolicy', () => {
  const policy = () =>
    createHostPolicy({ bindHost: '127.0.0.1', corsOrigins: [], allowedHosts: ['hearth.lan'] });

  it('gives the same verdict when asked again about a Host', () => {
    const hosts = policy();
    for (let round = 0; round < 3; round += 1) {
      expect(hosts.isAllowed('hearth.lan:7432')).toBe(true);
      expect(hosts.isAllowed('evil.example:7432')).toBe(false);
      expect(hosts.isAllowed('localhost')).toBe(true);
      expect(hosts.isAllowed('a@b')).toBe(false);
      expect(hosts.isAllowed(undefined)).toBe(false);
    }
  });

  it('decides every Host right after it stopped remembering new ones', () => {
    const hosts = policy();
    for (let i = 0; i < 1_000; i += 1) expect(hosts.isAllowed(`other-${i}.example`)).toBe(false);
    expect(hosts.isAllowed('evil.example')).toBe(false);
    expect(hosts.isAllowed('HEARTH.lan.')).toBe(true);
    expect(hosts.isAllowed('[::1]:80')).toBe(true);
  });
});
