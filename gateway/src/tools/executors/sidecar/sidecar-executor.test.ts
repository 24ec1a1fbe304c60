import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProcessBackend,
  createSandboxServer,
  silentLogger as silentSidecarLogger,
} from '../../../../../sidecars/sandbox-executor/src/index.ts';
import { silentLogger } from '../../../observability/logger.ts';
import { CONFORMANCE_PATH, runExecutorConformance } from '../conformance.ts';
import type { Executor } from '../ports.ts';
import { createSidecarExecutor, sandboxWorkdir } from './sidecar-executor.ts';

const TOKEN = 'sidecar-test-token-0123456789abcdef';

/** The real sidecar server, in this process, on a free loopback port, process backend. */
async function startSidecar(): Promise<{ url: string; stop(): Promise<void> }> {
  const workdir = await mkdtemp(join(tmpdir(), 'hearth-sidecar-work-'));
  const backend = createProcessBackend({ defaultWorkdir: workdir, logger: silentSidecarLogger() });
  const server: Server = createSandboxServer({
    backend,
    token: TOKEN,
    logger: silentSidecarLogger(),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      await backend.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await rm(workdir, { recursive: true, force: true });
    },
  };
}

let sidecar: Awaited<ReturnType<typeof startSidecar>>;
beforeAll(async () => {
  sidecar = await startSidecar();
});
afterAll(async () => {
  await sidecar.stop();
});

runExecutorConformance('sidecar (process backend, over HTTP)', () =>
  createSidecarExecutor({ url: sidecar.url, token: TOKEN, fetch, logger: silentLogger() }),
);

describe('sidecar executor', () => {
  let executor: Executor;
  beforeAll(async () => {
    executor = await createSidecarExecutor({
      url: `${sidecar.url}/`,
      token: () => TOKEN,
      fetch,
      logger: silentLogger(),
    });
  });
  afterAll(async () => {
    await executor.close();
  });

  it('takes its kind and isolation from the sidecar’s /health', async () => {
    expect(executor.kind).toBe('sandbox-process');
    expect(executor.isolation).toBe('process-group');
    expect(await executor.ping()).toBe(true);
  });

  it('refuses to start with a wrong token, and when the sidecar is unreachable', async () => {
    await expect(
      createSidecarExecutor({ url: sidecar.url, token: 'wrong', fetch, logger: silentLogger() }),
    ).rejects.toMatchObject({ code: 'unavailable', message: 'the sidecar rejected the token' });
    await expect(
      createSidecarExecutor({
        url: 'http://127.0.0.1:9', // discard port: nothing listens
        token: TOKEN,
        fetch,
        logger: silentLogger(),
        probeTimeoutMs: 2_000,
      }),
    ).rejects.toMatchObject({ code: 'unavailable', message: /cannot be reached/ });
  });

  it('reports a request the sidecar refuses as a validation error', async () => {
    await expect(
      executor.run({
        command: 'true',
        timeoutSeconds: 5,
        env: { PATH: CONFORMANCE_PATH },
        workdir: '/nonexistent/hearth',
      }),
    ).rejects.toMatchObject({ code: 'validation', message: /workdir is not a directory/ });
  });

  it('gives up after the command timeout plus a grace when the sidecar does not answer', async () => {
    const urlOf = (input: Parameters<typeof fetch>[0]) =>
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    // Answers the start-up checks, then never answers a command.
    const hang: typeof fetch = (input, init) =>
      urlOf(input).endsWith('/exec') && init?.body !== '{}'
        ? new Promise((_, reject) =>
            init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
          )
        : fetch(input, init);
    const stuck = await createSidecarExecutor({
      url: sidecar.url,
      token: TOKEN,
      fetch: hang,
      logger: silentLogger(),
      graceSeconds: 0.2,
    });
    const startedAt = performance.now();
    await expect(stuck.run({ command: 'true', timeoutSeconds: 0.3, env: {} })).rejects.toThrow(
      /did not answer within 0.5 s/,
    );
    expect(performance.now() - startedAt).toBeLessThan(3_000);
    await stuck.close();
  });

  describe('HTTP API', () => {
    const exec = (headers: Record<string, string>, body: string) =>
      fetch(`${sidecar.url}/exec`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    const valid = JSON.stringify({ command: 'echo hi', timeout_seconds: 5, env: {} });

    it('answers /health without a token', async () => {
      const response = await fetch(`${sidecar.url}/health`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        status: 'ok',
        backend: 'process',
        isolation: 'process-group',
        skills: null, // this server was started without a skill launcher
        skills_wall: null, // and so has no wall around skill hosts to report
      });
    });

    it('401 without a token and with a wrong one', async () => {
      const without = await exec({}, valid);
      expect(without.status).toBe(401);
      expect(await without.json()).toEqual({ detail: expect.stringMatching(/x-sandbox-token/i) });
      const wrong = await exec({ 'X-Sandbox-Token': `${TOKEN}x` }, valid);
      expect(wrong.status).toBe(401);
    });

    it('422 with a detail on a bad body', async () => {
      const token = { 'X-Sandbox-Token': TOKEN };
      for (const [body, field] of [
        ['not json', /not valid JSON/],
        ['[]', /JSON object/],
        [JSON.stringify({ timeout_seconds: 5 }), /command/],
        [JSON.stringify({ command: 'true', timeout_seconds: -1 }), /timeout_seconds/],
        [JSON.stringify({ command: 'true', timeout_seconds: 5, env: { A: 1 } }), /env\.A/],
        [JSON.stringify({ command: 'true', timeout_seconds: 5, workdir: 'rel' }), /workdir/],
        [JSON.stringify({ command: 'true', timeout_seconds: 5, network: 'yes' }), /network/],
        [
          JSON.stringify({ command: 'true', timeout_seconds: 5, max_output_bytes: 1.5 }),
          /max_output_bytes/,
        ],
        [
          JSON.stringify({ command: 'true', timeout_seconds: 5, shell: 'bash' }),
          /unknown field: shell/,
        ],
      ] as const) {
        const response = await exec(token, body);
        expect(response.status, body).toBe(422);
        expect((await response.json()) as { detail: string }).toEqual({
          detail: expect.stringMatching(field),
        });
      }
    });

    it('answers a valid call with the snake_case result', async () => {
      const response = await exec({ 'X-Sandbox-Token': TOKEN }, valid);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        exit_code: 0,
        signal: null,
        stdout: 'hi\n',
        stderr: '',
        timed_out: false,
        truncated: false,
        duration_ms: expect.any(Number),
      });
    });
  });
});

describe('the gateway workspace in the sandbox (hostWorkspace)', () => {
  const workspace = '/data/workspace';

  it('is the sandbox work folder: the workspace itself goes as no workdir, a folder below as /work/…', () => {
    expect(sandboxWorkdir(undefined, workspace, 'docker')).toBeUndefined();
    expect(sandboxWorkdir('/data/workspace', workspace, 'docker')).toBeUndefined();
    expect(sandboxWorkdir('/data/workspace/src/app', workspace, 'docker')).toBe('/work/src/app');
    expect(sandboxWorkdir('/data/workspace', `${workspace}/`, 'process')).toBeUndefined();
  });

  it('refuses a directory the sandbox cannot see, naming it', () => {
    for (const outside of ['/data', '/data/workspace2', '/etc', '/']) {
      expect(() => sandboxWorkdir(outside, workspace, 'docker')).toThrow(
        `workdir ${outside} is outside the workspace`,
      );
    }
  });

  it('refuses a folder below the workspace on the process backend, which has its own work folder', () => {
    expect(() => sandboxWorkdir('/data/workspace/src', workspace, 'process')).toThrow(
      /its own work folder/,
    );
  });
});
