/**
 * The skill-host sidecar on a Unix socket (the compose stack's `skill-host`): the socket file
 * is the owner's only (0600), and everything on it but /health wants the token, exactly as on
 * TCP: no token, a wrong one, a truncated one, an oversized body are all refused.
 */
import { statSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startSidecarProcess, type SidecarProcess } from './testing/sidecar-process.ts';

interface Answer {
  status: number;
  body: string;
}

function call(
  socketPath: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method, path, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The status a WebSocket upgrade to /skills/host gets over the socket. */
function upgrade(socketPath: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws+unix://${socketPath}:/skills/host`, { headers });
    socket.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('open', () => {
      resolve(101);
      socket.close();
    });
    socket.on('error', () => resolve(-1));
  });
}

describe('the skill-host sidecar on a Unix socket', () => {
  let sidecar: SidecarProcess;
  let path: string;
  beforeAll(async () => {
    sidecar = await startSidecarProcess({}, { unix: true });
    path = sidecar.url.replace(/^unix:/, '');
  }, 60_000);
  afterAll(() => sidecar?.stop());

  it('is a socket file only its owner can open (0600)', () => {
    const info = statSync(path);
    expect(info.isSocket()).toBe(true);
    expect(info.mode & 0o777).toBe(0o600);
  });

  it('answers /health without the token, and nothing else', async () => {
    expect((await call(path, 'GET', '/health')).status).toBe(200);
    const exec = JSON.stringify({ command: 'echo hi', timeout_seconds: 5, env: {} });
    const json = { 'content-type': 'application/json' };
    expect((await call(path, 'POST', '/exec', json, exec)).status).toBe(401);
    expect(
      (await call(path, 'POST', '/exec', { ...json, 'x-sandbox-token': 'wrong' }, exec)).status,
    ).toBe(401);
    expect(
      (
        await call(
          path,
          'POST',
          '/exec',
          { ...json, 'x-sandbox-token': sidecar.token.slice(0, -1) },
          exec,
        )
      ).status,
    ).toBe(401);
  });

  it('refuses a skill host without the right token', async () => {
    expect(await upgrade(path, {})).toBe(401);
    expect(await upgrade(path, { 'x-sandbox-token': sidecar.token.toUpperCase() })).toBe(401);
  });

  it('refuses an oversized /exec body and a traversing path without harm', async () => {
    const huge = 'x'.repeat(2 * 1024 * 1024);
    const over = await call(
      path,
      'POST',
      '/exec',
      { 'content-type': 'application/json', 'x-sandbox-token': sidecar.token },
      JSON.stringify({ command: huge, timeout_seconds: 5, env: {} }),
    ).catch(() => ({ status: 413, body: 'connection closed' }));
    expect([400, 413, 422]).toContain(over.status);
    expect((await call(path, 'GET', '/../../etc/passwd')).status).toBe(404);
    // Still serving.
    expect((await call(path, 'GET', '/health')).status).toBe(200);
  });
});
