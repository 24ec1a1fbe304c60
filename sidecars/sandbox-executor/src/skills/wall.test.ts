import { describe, expect, it } from 'vitest';
import { detectWall } from './wall.ts';

describe('the skill hosts’ network wall', () => {
  it('is bubblewrap wherever it works', () => {
    expect(detectWall({ bubblewrap: true, socketOnly: false, interfaces: ['lo', 'eth0'] })).toEqual(
      { description: 'bubblewrap', refusal: null },
    );
  });

  it('is the missing network of a sidecar with only loopback that listens only on a Unix socket', () => {
    const wall = detectWall({ bubblewrap: false, socketOnly: true, interfaces: ['lo'] });
    expect(wall.refusal).toBeNull();
    expect(wall.description).toMatch(/^no network \(only loopback/);
  });

  it('is missing with a network interface: every host is refused, saying which and how', () => {
    const wall = detectWall({ bubblewrap: false, socketOnly: true, interfaces: ['lo', 'eth0'] });
    expect(wall.refusal).toContain('this sidecar has a network (eth0)');
    expect(wall.refusal).toContain('network_mode: none');
    expect(wall.description).toBe(`none: skills refused (${wall.refusal})`);
  });

  it('is missing while the sidecar listens on TCP, even with only loopback', () => {
    const wall = detectWall({ bubblewrap: false, socketOnly: false, interfaces: ['lo'] });
    expect(wall.refusal).toContain('listens on TCP (set SANDBOX_SOCKET)');
  });
});
