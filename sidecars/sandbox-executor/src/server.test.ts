import type { Server } from 'node:http';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ExecRequestError } from './backends/ports.ts';
import type { Backend, BackendRequest, BackendResult } from './backends/ports.ts';
import { silentLogger } from './logger.ts';
import { createSandboxServer } from './server.ts';

const TOKEN = 'server-test-token-0123456789';

const OK: BackendResult = {
  exitCode: 0,
  signal: null,
  stdout: 'out',
  stderr: '',
  timedOut: false,
  truncated: false,
  durationMs: 3,
};

/** A backend whose `run` the test scripts; it records each request. */
function fakeBackend(run: (request: BackendRequest) => Promise<BackendResult>, up = true) {
  const requests: BackendRequest[] = [];
  const backend: Backend = {
    name: 'process',
    isolation: 'process-group',
    run(request) {
      requests.push(request);
      return run(request);
    },
    ping: () => Promise.resolve(up),
    close: () => Promise.resolve(),
  };
  return { backend, requests };
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function start(
  backend: Backend,
  options: { heartbeatMs?: number; maxBodyBytes?: number } = {},
) {
  server = createSandboxServer({ backend, token: TOKEN, logger: silentLogger(), ...options });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}/exec`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sandbox-token': TOKEN, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('sandbox-executor HTTP server', () => {
  it('GET /health says which backend and isolation, 503 when the backend is down', async () => {
    const url = await start(fakeBackend(() => Promise.resolve(OK)).backend);
    const up = await fetch(`${url}/health`);
    expect(up.status).toBe(200);
    expect(await up.json()).toEqual({
      status: 'ok',
      backend: 'process',
      isolation: 'process-group',
      skills: null, // no skill launcher given: GET /skills/host is 404
      skills_wall: null,
    });
    await new Promise((resolve) => server?.close(resolve));

    const downUrl = await start(fakeBackend(() => Promise.resolve(OK), false).backend);
    const down = await fetch(`${downUrl}/health`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ status: 'unavailable' });
  });

  it('POST /exec hands the parsed request to the backend and returns its result', async () => {
    const { backend, requests } = fakeBackend(() => Promise.resolve(OK));
    const url = await start(backend);
    const response = await post(url, {
      command: 'echo out',
      timeout_seconds: 2,
      env: { A: '1' },
      max_output_bytes: 10,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ exit_code: 0, stdout: 'out', timed_out: false });
    expect(requests[0]).toMatchObject({
      command: 'echo out',
      timeoutSeconds: 2,
      env: { A: '1' },
      network: false,
      maxOutputBytes: 10,
    });
    expect(requests[0]?.signal).toBeInstanceOf(AbortSignal);
  });

  it('401 without the token, with a wrong one, and never runs anything', async () => {
    const { backend, requests } = fakeBackend(() => Promise.resolve(OK));
    const url = await start(backend);
    const body = { command: 'true', timeout_seconds: 1 };
    for (const headers of [{ 'x-sandbox-token': '' }, { 'x-sandbox-token': 'wrong' }]) {
      const response = await post(url, body, headers);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ detail: 'missing or wrong x-sandbox-token header' });
    }
    expect(requests).toHaveLength(0);
  });

  it('422 with a detail on a bad body, 415 when not JSON, 413 when too large', async () => {
    const url = await start(fakeBackend(() => Promise.resolve(OK)).backend, { maxBodyBytes: 1024 });
    const bad = await post(url, { command: 'true' });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({ detail: expect.stringMatching(/^timeout_seconds/) });
    const broken = await post(url, '{"command":');
    expect(broken.status).toBe(422);
    const text = await post(url, 'x', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    const large = await post(url, { command: 'x'.repeat(2048), timeout_seconds: 1 });
    expect(large.status).toBe(413);
  });

  it('422 when the backend refuses the request, 500 when it fails', async () => {
    const refusing = fakeBackend(() => Promise.reject(new ExecRequestError('workdir is missing')));
    const url = await start(refusing.backend);
    const refused = await post(url, { command: 'true', timeout_seconds: 1 });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({ detail: 'workdir is missing' });
    await new Promise((resolve) => server?.close(resolve));

    const failing = fakeBackend(() => Promise.reject(new Error('engine gone')));
    const failingUrl = await start(failing.backend);
    const failed = await post(failingUrl, { command: 'true', timeout_seconds: 1 });
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ detail: 'the sandbox failed: engine gone' });
  });

  it('404 for other paths, 405 for other methods', async () => {
    const url = await start(fakeBackend(() => Promise.resolve(OK)).backend);
    expect((await fetch(`${url}/run`)).status).toBe(404);
    expect((await fetch(`${url}/exec`)).status).toBe(405);
    expect((await fetch(`${url}/health`, { method: 'POST' })).status).toBe(405);
  });

  it('aborts the backend call when the caller goes away', async () => {
    let aborted: Promise<void> = Promise.resolve();
    const { backend } = fakeBackend(
      (request) =>
        new Promise((resolve) => {
          aborted = new Promise((done) =>
            request.signal?.addEventListener('abort', () => {
              done();
              resolve({ ...OK, exitCode: null, signal: 'SIGKILL' });
            }),
          );
        }),
    );
    const url = await start(backend);
    const controller = new AbortController();
    const caller = fetch(`${url}/exec`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-token': TOKEN },
      body: JSON.stringify({ command: 'sleep 30', timeout_seconds: 60 }),
      signal: controller.signal,
    }).catch(() => null);
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    await caller;
    await expect(
      Promise.race([aborted, new Promise((_, reject) => setTimeout(reject, 2_000))]),
    ).resolves.toBeUndefined();
  });

  it('keeps a long call alive with newlines after the head, then sends the result', async () => {
    const { backend } = fakeBackend(
      () => new Promise((resolve) => setTimeout(() => resolve(OK), 250)),
    );
    const url = await start(backend, { heartbeatMs: 50 });
    const raw = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(
        `${url}/exec`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-sandbox-token': TOKEN },
        },
        (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        },
      );
      request.on('error', reject);
      request.end(JSON.stringify({ command: 'sleep 1', timeout_seconds: 5 }));
    });
    expect(raw.status).toBe(200);
    expect(raw.body).toMatch(/^\n{2,}\{/);
    expect(JSON.parse(raw.body)).toMatchObject({ exit_code: 0, stdout: 'out' });
  });
});
