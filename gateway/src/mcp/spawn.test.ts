/**
 * The spec's "MCP server process" states over REST: stopped → spawn → running (pid); running →
 * spawn → running (same pid, already_running, no second process); running → DELETE server →
 * stopped (killed). The child gets the gateway's URL and key and nothing else secret, its stdio
 * belongs to the gateway, and it dies with the gateway.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { rawRequest } from '../testing/fakes/raw-request.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';
import { CLI_SOURCE } from './testing/mcp-test-bed.ts';

const KEY = 'mcp-test-key-0123456789';
const PROVIDER_KEY = 'sk-ant-provider-secret-value';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The child's environment, read from /proc (Linux). */
async function environOf(pid: number): Promise<Record<string, string>> {
  const text = await readFile(`/proc/${pid}/environ`, 'utf8');
  return Object.fromEntries(
    text
      .split('\0')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
}

describe('POST /mcp/spawn, GET /mcp/status, DELETE /mcp/server', { timeout: 120_000 }, () => {
  let gw: TestGateway | undefined;

  afterEach(async () => {
    await gw?.close();
    gw = undefined;
  });

  const start = async (withCommand = true) => {
    gw = await startTestGateway({
      config: { gateway: { api_key: KEY }, models: { anthropic_api_key: PROVIDER_KEY } },
      processEnv: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        ANTHROPIC_API_KEY: PROVIDER_KEY,
        HEARTH_HOME: '/somewhere',
        LANG: 'C.UTF-8',
      },
      mcpServerCommand: withCommand
        ? { command: process.execPath, args: [CLI_SOURCE, 'mcp'] }
        : undefined,
    });
    await gw.gateway.whenReady();
    return gw;
  };

  const call = async (method: string, path: string, key: string | null = KEY) => {
    const res = await fetch(`${gw!.url}/api/v1${path}`, {
      method,
      headers: key === null ? {} : { 'x-api-key': key },
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('follows the state machine: spawn, spawn again, status, kill, kill again', async () => {
    await start();
    expect((await call('GET', '/mcp/status')).body).toEqual({ running: false, pid: 0 });

    const first = await call('POST', '/mcp/spawn');
    expect(first.status).toBe(200);
    const pid = first.body.pid as number;
    expect(first.body).toEqual({ pid, running: true, already_running: false });
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(true);

    const second = await call('POST', '/mcp/spawn');
    expect(second.body).toEqual({ pid, running: true, already_running: true });
    expect((await call('GET', '/mcp/status')).body).toEqual({ running: true, pid });
    expect((await call('GET', '/status')).body.backends).toMatchObject({
      mcp_server: `running (pid ${pid})`,
    });

    expect((await call('DELETE', '/mcp/server')).body).toEqual({ killed: true });
    expect(alive(pid)).toBe(false);
    expect((await call('GET', '/mcp/status')).body).toEqual({ running: false, pid: 0 });
    expect((await call('DELETE', '/mcp/server')).body).toEqual({ killed: false });

    const again = await call('POST', '/mcp/spawn');
    expect(again.body.already_running).toBe(false);
    expect(again.body.pid).not.toBe(pid);
  });

  it('two spawns at once start one process', async () => {
    await start();
    const [a, b] = await Promise.all([call('POST', '/mcp/spawn'), call('POST', '/mcp/spawn')]);
    expect(a.body.pid).toBe(b.body.pid);
    expect([a.body.already_running, b.body.already_running].sort()).toEqual([false, true]);
  });

  it('gives the child the gateway URL and key, and no provider key or other HEARTH_ variable', async () => {
    const { url } = await start();
    const pid = (await call('POST', '/mcp/spawn')).body.pid as number;
    const env = await environOf(pid);
    expect(env.HEARTH_GATEWAY_URL).toBe(url);
    expect(env.HEARTH_API_KEY).toBe(KEY);
    expect(env.LANG).toBe('C.UTF-8');
    expect(env).not.toHaveProperty('ANTHROPIC_API_KEY');
    expect(env).not.toHaveProperty('HEARTH_HOME');
    expect(Object.values(env).join('\n')).not.toContain(PROVIDER_KEY);
  });

  it('kills the child when the gateway closes', async () => {
    const running = await start();
    const pid = (await call('POST', '/mcp/spawn')).body.pid as number;
    await running.close();
    gw = undefined;
    expect(alive(pid)).toBe(false);
  });

  it('hearth mcp exits by itself when its stdin closes (a gateway that died in any way)', async () => {
    const { url } = await start();
    const child = spawn(process.execPath, [CLI_SOURCE, 'mcp'], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HEARTH_GATEWAY_URL: url },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stdin.end();
    expect(await exited).toBe(0);
  });

  it('needs the key like every API route, and nothing is spawned without it', async () => {
    await start();
    for (const [method, path] of [
      ['POST', '/mcp/spawn'],
      ['GET', '/mcp/status'],
      ['DELETE', '/mcp/server'],
      ['GET', '/mcp/servers'],
      ['POST', '/mcp/servers'],
      ['DELETE', '/mcp/servers/x'],
      ['POST', '/mcp/tools/current_time/call'],
    ] as const) {
      expect((await call(method, path, null)).status, `${method} ${path}`).toBe(401);
      expect((await call(method, path, 'wrong-key')).status, `${method} ${path}`).toBe(401);
    }
    expect((await call('GET', '/mcp/status')).body).toEqual({ running: false, pid: 0 });
  });

  it('refuses a foreign Host (DNS rebinding) and a foreign Origin before spawning', async () => {
    const { port } = await start();
    // A page rebound to 127.0.0.1 under its own name has no key (a request with the key
    // passes with any Host, by the gateway's rule).
    const rebound = await rawRequest(port, '/api/v1/mcp/spawn', {
      method: 'POST',
      headers: { host: 'evil.example' },
    });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toHaveProperty('detail');
    const foreign = await rawRequest(port, '/api/v1/mcp/spawn', {
      method: 'POST',
      headers: { host: `127.0.0.1:${port}`, origin: 'https://evil.example', 'x-api-key': KEY },
    });
    expect(foreign.status).toBe(403);
    expect((await call('GET', '/mcp/status')).body).toEqual({ running: false, pid: 0 });
  });

  it('answers 503 with a detail when the gateway does not know how to start hearth mcp', async () => {
    await start(false);
    const res = await call('POST', '/mcp/spawn');
    expect(res.status).toBe(503);
    expect(res.body.detail).toMatch(/hearth mcp/);
  });
});
