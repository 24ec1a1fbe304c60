import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monitorEgress } from './egress-monitor.ts';

let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((_, response) => response.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/probe`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

// The no-egress assertions elsewhere are only worth something if the monitor sees traffic.
describe('egress monitor', () => {
  it('sees fetch and http.request, and nothing after stop()', async () => {
    const monitor = monitorEgress();
    await (await fetch(url)).text();
    await new Promise<void>((resolve, reject) => {
      http.get(url, (response) => response.resume().on('end', resolve)).on('error', reject);
    });
    monitor.stop();
    const channels = new Set(monitor.events.map((event) => event.channel));
    expect(channels).toContain('undici:request:create');
    expect(channels).toContain('http.client.request.start');
    expect(channels).toContain('net.client.socket');
    expect(monitor.events.some((event) => event.target.includes('127.0.0.1'))).toBe(true);

    const count = monitor.events.length;
    await (await fetch(url)).text();
    expect(monitor.events).toHaveLength(count);
  });
});
