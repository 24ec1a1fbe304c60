/**
 * The compose stack as a home lab runs it: `docker compose up -d` of docker-compose.yml with
 * docker-compose.offline.yml (the images of scripts/build-images.sh; a fake Ollama-compatible
 * model in place of ollama; qdrant left out, so the gateway's in-memory vectors serve), plus the
 * `sandbox` and `proxy` profiles. Then, like a user: the gateway turns healthy through the compose
 * healthcheck on /ready, a chat goes through Caddy over TLS with X-API-Key (and is refused
 * without it), Redis is used and its loss never reaches a chat, an approved shell command runs in
 * a throwaway container with no network and a read-only root, a hostile skill installed from
 * the hub runs in the skill-host container and gets nowhere (the escape suite: no TCP to
 * loopback, the gateway or Redis, no self-approval over REST, no Unix socket, no other
 * session's cache), and the state outlives `docker compose down && up`.
 *
 * Skipped, with the reason in the title, when no Docker engine, compose client or built images
 * are here (`scripts/build-images.sh` builds them; `.ci/run` does both). HEARTH_E2E_CONTAINERS=0
 * skips it on purpose.
 *
 * Isolation: its own compose project (so `down -v` never touches a real `hearth` stack), free
 * host ports, and its own first-start config (the shipped infra/compose/config.toml with the
 * sandbox lines switched on).
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiResponse, GatewayStatus, PendingApproval } from '@hearth/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ESCAPE_SKILL_MJS } from '../gateway/src/skills/host/testing/escape-suite.ts';
import {
  composeCommand,
  engineUnavailableReason,
  eventually,
  freePort,
  GATEWAY_IMAGE,
  IMAGE_TAG,
  missingImagesReason,
  repoRoot,
  run,
  runOk,
} from './containers/engine.ts';

type ChatReply = ApiResponse<'/chat', 'POST'>;

const UP_TIMEOUT_MS = 5 * 60_000;
const HEALTHY_TIMEOUT_MS = 3 * 60_000;
const FAKE_REPLY = 'Hello from the fake model.';

const compose = engineUnavailableReason() === null ? composeCommand() : null;
const unavailable =
  engineUnavailableReason() ??
  (compose === null ? 'no compose client (docker compose plugin or docker-compose)' : null) ??
  missingImagesReason([
    GATEWAY_IMAGE,
    `hearth-redis:${IMAGE_TAG}`,
    `hearth-fake-llm:${IMAGE_TAG}`,
    `hearth-caddy:${IMAGE_TAG}`,
    `hearth-sandbox-executor:${IMAGE_TAG}`,
    `hearth-sandbox:${IMAGE_TAG}`,
  ]);
const title = unavailable === null ? 'compose stack' : `compose stack (skipped: ${unavailable})`;
// Reporters list skipped suites only in verbose mode: say why once in any case.
if (unavailable !== null) process.stderr.write(`${title}\n`);

interface HttpsAnswer {
  status: number;
  body: string;
}

describe.skipIf(unavailable !== null)(title, () => {
  const project = `hearth-e2e-${randomBytes(4).toString('hex')}`;
  const apiKey = randomBytes(24).toString('hex');
  let env: NodeJS.ProcessEnv = {};
  let gatewayUrl = '';
  let httpsPort = 0;
  let caddyCa = '';
  let seedDir = '';
  let started = false;

  const composeRun = (args: readonly string[], timeoutMs = 120_000) =>
    run(
      [
        ...(compose ?? []),
        '-p',
        project,
        '-f',
        'docker-compose.yml',
        '-f',
        'docker-compose.offline.yml',
        '--profile',
        'sandbox',
        '--profile',
        'proxy',
        ...args,
      ],
      { env, timeoutMs },
    );
  const logs = async () => (await composeRun(['logs', '--no-color', '--tail', '80'])).output;
  const containerOf = async (service: string) => {
    const id = (await composeRun(['ps', '-q', service])).output.trim().split('\n')[0] ?? '';
    if (id === '') throw new Error(`no container for ${service}\n${await logs()}`);
    return id;
  };

  const api = async (path: string, init: RequestInit = {}) =>
    await fetch(`${gatewayUrl}/api/v1${path}`, {
      ...init,
      headers: { 'X-API-Key': apiKey, 'content-type': 'application/json', ...init.headers },
      signal: AbortSignal.timeout(150_000),
    });
  const backends = async () => ((await (await api('/status')).json()) as GatewayStatus).backends;

  /** A request to Caddy over TLS, verified against the root of Caddy's own local CA. */
  function viaCaddy(path: string, init: { method?: string; body?: string; key?: string } = {}) {
    return new Promise<HttpsAnswer>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: httpsPort,
          servername: 'localhost',
          ca: caddyCa,
          method: init.method ?? 'GET',
          path,
          headers: {
            host: `localhost:${httpsPort}`,
            'content-type': 'application/json',
            ...(init.key === undefined ? {} : { 'X-API-Key': init.key }),
          },
          timeout: 60_000,
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.end(init.body);
    });
  }

  async function waitHealthy(): Promise<void> {
    const gateway = await containerOf('gateway');
    await eventually(
      async () => {
        const health = await runOk(
          ['docker', 'inspect', '--format', '{{.State.Health.Status}}', gateway],
          { timeoutMs: 15_000 },
        );
        return health.trim() === 'healthy' ? true : undefined;
      },
      HEALTHY_TIMEOUT_MS,
      async () => `gateway not healthy after ${HEALTHY_TIMEOUT_MS} ms\n${await logs()}`,
    );
  }

  beforeAll(
    async () => {
      seedDir = await mkdtemp(join(tmpdir(), 'hearth-e2e-seed-'));
      // The gateway-init container (uid 1000) reads the seed through a bind mount.
      await chmod(seedDir, 0o755);
      const shipped = await readFile(join(repoRoot, 'infra/compose/config.toml'), 'utf8');
      const seed = shipped.replace(/^# (executor|sandbox_url|sandbox_token) = /gm, '$1 = ');
      expect(seed).toMatch(/^executor = "sandbox"$/m);
      await writeFile(join(seedDir, 'config.toml'), seed, { mode: 0o644 });

      const gatewayPort = await freePort();
      httpsPort = await freePort();
      gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
      env = {
        ...process.env,
        HEARTH_API_KEY: apiKey,
        // As the README's .env: Redis requires a password; gateways sign what they share.
        HEARTH_REDIS_PASSWORD: randomBytes(24).toString('hex'),
        HEARTH_CLUSTER_SECRET: randomBytes(32).toString('hex'),
        HEARTH_SANDBOX_TOKEN: randomBytes(24).toString('hex'),
        HEARTH_SKILLS_TOKEN: randomBytes(24).toString('hex'),
        HEARTH_IMAGE: GATEWAY_IMAGE,
        HEARTH_IMAGE_TAG: IMAGE_TAG,
        HEARTH_PUBLISH_PORT: String(gatewayPort),
        HEARTH_HTTPS_PORT: String(httpsPort),
        HEARTH_HTTP_PORT: String(await freePort()),
        HEARTH_DOMAIN: 'localhost',
        HEARTH_SEED_CONFIG: join(seedDir, 'config.toml'),
        DOCKER_GID: String(statSync('/var/run/docker.sock').gid),
      };
      started = true; // from here on, afterAll cleans up even if `up` fails halfway
      const up = await composeRun(['up', '-d'], UP_TIMEOUT_MS);
      if (up.code !== 0) throw new Error(`compose up failed:\n${up.output}\n${await logs()}`);
      await waitHealthy();
      const caddy = await containerOf('caddy');
      caddyCa = await eventually(
        async () =>
          (await run(
            ['docker', 'exec', caddy, 'cat', '/data/caddy/pki/authorities/local/root.crt'],
            {
              timeoutMs: 15_000,
            },
          ).then((result) => (result.code === 0 ? result.output : undefined))) ?? undefined,
        60_000,
        async () => `Caddy made no local CA\n${await logs()}`,
      );
    },
    UP_TIMEOUT_MS + HEALTHY_TIMEOUT_MS + 90_000,
  );

  afterAll(async () => {
    if (started) {
      const down = await composeRun(['down', '-v', '--remove-orphans'], 180_000);
      if (down.code !== 0)
        process.stderr.write(`compose down failed (${project}):\n${down.output}\n`);
    }
    if (seedDir !== '') await rm(seedDir, { recursive: true, force: true });
  }, 200_000);

  it('turns healthy through the compose healthcheck on /ready, having pulled the local model', async () => {
    expect((await fetch(`${gatewayUrl}/ready`)).status).toBe(200);
    const status = await backends();
    expect(status.local_model).toBe('llama3.2: pulled');
    // qdrant is not part of this stack: the in-memory vectors serve, and status says so.
    expect(status.vectors).toMatch(/in-memory/);
  });

  it('answers a chat through Caddy over TLS with X-API-Key, and refuses it without', async () => {
    const chat = JSON.stringify({ message: 'hello through the proxy', session_id: 'e2e-proxy' });
    const ok = await viaCaddy('/api/v1/chat', { method: 'POST', body: chat, key: apiKey });
    expect(ok.status).toBe(200);
    expect((JSON.parse(ok.body) as ApiResponse<'/chat', 'POST'>).reply).toBe(FAKE_REPLY);

    // The embedding model baked in at build time, if the build could fetch one; without it
    // status says semantic memory is off and how to get the model.
    const models = await runOk(
      ['docker', 'exec', await containerOf('gateway'), 'ls', '-A', '/data/models'],
      { timeoutMs: 15_000 },
    );
    expect((await backends()).embedder).toBe(
      models.trim() === ''
        ? 'off (no embedding model; to turn on: hearth memory models pull)'
        : 'local',
    );

    const noKey = await viaCaddy('/api/v1/chat', { method: 'POST', body: chat });
    expect(noKey.status).toBe(401);
    expect(JSON.parse(noKey.body)).toEqual({ detail: 'Missing or invalid X-API-Key header' });
    const wrongKey = await viaCaddy('/api/v1/status', { key: `${apiKey}x` });
    expect(wrongKey.status).toBe(401);
    // Behind the edge the gateway checks the key too.
    expect((await fetch(`${gatewayUrl}/api/v1/status`)).status).toBe(401);
    expect((await viaCaddy('/health')).status).toBe(200);
    // The web client, served by the gateway at `/`, through the proxy.
    const page = await viaCaddy('/');
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<html/i);
  });

  it('serves the web client on the published port (not 7432): its scripts and API calls pass the origin check', async () => {
    // A browser on http://127.0.0.1:<published port> sends that as Origin on module scripts,
    // fetches and sockets; the gateway inside listens on 7432.
    expect(new URL(gatewayUrl).port).not.toBe('7432');
    const origin = gatewayUrl;
    const page = await fetch(`${gatewayUrl}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const scripts = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      const script = await fetch(new URL(src, gatewayUrl), { headers: { origin } });
      expect(script.status, src).toBe(200);
    }
    const status = await fetch(`${gatewayUrl}/api/v1/status`, {
      headers: { origin, 'x-api-key': apiKey },
    });
    expect(status.status).toBe(200);
    expect(status.headers.get('access-control-allow-origin')).toBe(origin);
    // Another port on the same host is still foreign.
    const foreign = await fetch(`${gatewayUrl}/api/v1/status`, {
      headers: { origin: 'http://127.0.0.1:1', 'x-api-key': apiKey },
    });
    expect(foreign.status).toBe(403);
  });

  it('uses Redis; killing it never reaches a chat, and starting it again switches back', async () => {
    expect(await backends()).toMatchObject({
      short_term: 'redis',
      approvals: 'redis',
      scale_out: 'redis (authenticated)',
    });
    const redis = await containerOf('redis');
    // Redis answers nobody without the password of .env.
    const anonymous = await runOk(
      ['docker', 'exec', redis, 'sh', '-c', 'env -u REDISCLI_AUTH redis-cli ping'],
      { timeoutMs: 15_000 },
    );
    expect(anonymous).toMatch(/NOAUTH/);
    await runOk(['docker', 'kill', redis], { timeoutMs: 30_000 });
    const chat = await api('/chat', {
      method: 'POST',
      body: JSON.stringify({ message: 'while redis is down', session_id: 'e2e-redis' }),
    });
    expect(chat.status).toBe(200);
    expect(((await chat.json()) as ChatReply).reply).toBe(FAKE_REPLY);
    await eventually(
      async () => ((await backends()).short_term === 'in-process' ? true : undefined),
      30_000,
      async () =>
        `status never showed the in-process fallback: ${JSON.stringify(await backends())}`,
    );
    await runOk(['docker', 'start', redis], { timeoutMs: 30_000 });
    await eventually(
      async () => ((await backends()).short_term === 'redis' ? true : undefined),
      90_000,
      async () => `status never switched back to redis: ${JSON.stringify(await backends())}`,
    );
  });

  it('runs an approved shell command in a throwaway container: no network, read-only root', async () => {
    expect((await backends()).executor).toBe('sandbox-docker');
    const command =
      'ls /sys/class/net | tr "\\n" " "; (touch /probe 2>/dev/null && echo root-writable) || echo root-read-only; id -u';
    const turn = api('/chat', {
      method: 'POST',
      body: JSON.stringify({ message: `run: ${command}`, session_id: 'e2e-sandbox' }),
    });
    const pending = await eventually(
      async () => {
        const body = (await (await api('/approvals/pending')).json()) as {
          pending: PendingApproval[];
        };
        return body.pending.find((entry) => entry.session_id === 'e2e-sandbox');
      },
      60_000,
      async () => `no pending approval appeared\n${await logs()}`,
    );
    expect(pending.command).toBe(command);
    const approved = await api(`/approvals/${pending.id}/approve`, { method: 'POST', body: '{}' });
    expect(approved.status).toBe(200);
    const reply = ((await (await turn).json()) as ChatReply).reply;
    expect(reply).toMatch(/^Tool output: /);
    // Only the loopback interface: the container has no network.
    expect(reply).toMatch(/\blo \n?/);
    expect(reply).not.toMatch(/\beth0\b/);
    expect(reply).toContain('root-read-only');
    expect(reply).not.toMatch(/\n0\n?$/); // not root
    const left = await runOk(['docker', 'ps', '-aq', '--filter', 'label=io.hearth.sandbox'], {
      timeoutMs: 15_000,
    });
    expect(left.trim()).toBe('');
  });

  it('hosts a hostile hub skill in the skill-host container, where it reaches nothing', async () => {
    expect((await backends()).skills).toMatch(/^sandbox sidecar \(process, wall: no network/);
    const ipOf = async (service: string) =>
      (
        await runOk(
          [
            'docker',
            'inspect',
            '--format',
            '{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}',
            await containerOf(service),
          ],
          { timeoutMs: 15_000 },
        )
      )
        .trim()
        .split(' ')[0]!;
    const gatewayIp = await ipOf('gateway');
    const redisIp = await ipOf('redis');

    // A pending approval of another session, which the skill will try to approve itself.
    const waiting = api('/chat', {
      method: 'POST',
      body: JSON.stringify({ message: 'run: echo never-approved', session_id: 'e2e-victim' }),
    });
    const pending = await eventually(
      async () => {
        const body = (await (await api('/approvals/pending')).json()) as {
          pending: PendingApproval[];
        };
        return body.pending.find((entry) => entry.session_id === 'e2e-victim');
      },
      60_000,
      async () => `no pending approval appeared\n${await logs()}`,
    );

    const installed = await api('/hub/packages', {
      method: 'POST',
      body: JSON.stringify({
        name: 'escape',
        url: `data:text/javascript;base64,${Buffer.from(ESCAPE_SKILL_MJS).toString('base64')}`,
        force: true,
      }),
    });
    expect(installed.status, await installed.clone().text()).toBe(200);
    expect(((await installed.json()) as { state: string }).state).toBe('active');

    const callTool = async (tool: string, args: Record<string, unknown>) => {
      const turn = await api('/chat', {
        method: 'POST',
        body: JSON.stringify({
          message: `call: escape_${tool} ${JSON.stringify(args)}`,
          session_id: 'e2e-escape',
        }),
      });
      expect(turn.status).toBe(200);
      return ((await turn.json()) as ChatReply).reply;
    };
    // The skill runs: the wall is around it, not instead of it.
    expect(await callTool('hello', {})).toContain('hello from behind the wall');

    const approveUrl = (host: string) => `http://${host}/api/v1/approvals/${pending.id}/approve`;
    const attempts: [string, string, Record<string, unknown>][] = [
      ['TCP to loopback (the gateway port)', 'tcp', { host: '127.0.0.1', port: 7432 }],
      ['TCP to the gateway on the compose network', 'tcp', { host: gatewayIp, port: 7432 }],
      ['TCP to Redis', 'tcp', { host: redisIp, port: 6379 }],
      ['self-approval over REST, loopback', 'approve', { url: approveUrl('127.0.0.1:7432') }],
      ['self-approval over REST, the gateway', 'approve', { url: approveUrl(`${gatewayIp}:7432`) }],
      ['another session in Redis', 'redis', { host: redisIp, port: 6379, key: 'hearth:e2e' }],
      ['the host’s Docker socket', 'unixSocket', { path: '/var/run/docker.sock' }],
      ['another session’s cache (the gateway’s database)', 'readFile', { path: '/data/memory.db' }],
      ['the gateway’s config', 'readFile', { path: '/data/config.toml' }],
    ];
    for (const [what, tool, args] of attempts) {
      const reply = await callTool(tool, args);
      process.stdout.write(`escape suite, ${what}: ${reply.slice(0, 160)}\n`);
      // A tool error of the skill (the tool ran and failed), never a way through.
      expect(reply, what).toMatch(/^Tool output: skill escape: /);
      expect(reply, what).not.toContain('ESCAPED');
    }

    // Nothing got approved: the request is still pending, and denying it is the owner's call.
    const still = (await (await api('/approvals/pending')).json()) as {
      pending: PendingApproval[];
    };
    expect(still.pending.map((entry) => entry.id)).toContain(pending.id);
    expect(
      (await api(`/approvals/${pending.id}/deny`, { method: 'POST', body: '{}' })).status,
    ).toBe(200);
    expect(((await (await waiting).json()) as ChatReply).reply).not.toMatch(
      /^Tool output: never-approved/,
    );
    expect((await api('/hub/escape', { method: 'DELETE' })).status).toBe(200);
  });

  it(
    'keeps its state across docker compose down && up (the volume)',
    async () => {
      const marker = `survives-restart-${randomBytes(4).toString('hex')}`;
      const stored = await api('/memory', {
        method: 'POST',
        body: JSON.stringify({ content: marker, session_id: 'e2e-volume', importance: 0.9 }),
      });
      expect(stored.status).toBe(200);
      const down = await composeRun(['down'], 180_000);
      expect(down.code, down.output).toBe(0);
      const up = await composeRun(['up', '-d'], UP_TIMEOUT_MS);
      expect(up.code, up.output).toBe(0);
      await waitHealthy();
      const found = (await (
        await api(`/memory/search?q=${marker}&limit=5`)
      ).json()) as ApiResponse<'/memory/search'>;
      expect(found.results.map((entry) => entry.content)).toContain(marker);
      // The fake model keeps nothing across restarts (Ollama keeps its models in a volume): the
      // gateway found the model missing again and pulled it again.
      expect((await backends()).local_model).toBe('llama3.2: pulled');
    },
    UP_TIMEOUT_MS + HEALTHY_TIMEOUT_MS + 200_000,
  );
});
