/**
 * The gateway image by itself (testcontainers): it turns healthy through its own HEALTHCHECK,
 * serves /ready, runs as a non-root user with its state directory private to that user, refuses
 * to listen on every interface without an API key, and its size is reported.
 *
 * Skipped, with the reason in the title, when no Docker engine or no built image is here
 * (`scripts/build-images.sh`; `.ci/run` builds it). HEARTH_E2E_CONTAINERS=0 skips it on purpose.
 */
import { randomBytes } from 'node:crypto';
import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  engineUnavailableReason,
  GATEWAY_IMAGE,
  missingImagesReason,
  run,
  runOk,
} from './containers/engine.ts';

const unavailable = engineUnavailableReason() ?? missingImagesReason([GATEWAY_IMAGE]);
const title = unavailable === null ? 'gateway image' : `gateway image (skipped: ${unavailable})`;
if (unavailable !== null) process.stderr.write(`${title}\n`);

const CONFIG = `[gateway]
host = "0.0.0.0"
api_key = "ENV:HEARTH_API_KEY"
`;

describe.skipIf(unavailable !== null)(title, () => {
  const apiKey = randomBytes(24).toString('hex');
  let container: StartedTestContainer | undefined;
  let url = '';

  beforeAll(async () => {
    container = await new GenericContainer(GATEWAY_IMAGE)
      .withEnvironment({ HEARTH_API_KEY: apiKey, HEARTH_CONFIG: '/tmp/hearth-config.toml' })
      .withCopyContentToContainer([
        { content: CONFIG, target: '/tmp/hearth-config.toml', mode: 0o644 },
      ])
      .withExposedPorts(7432)
      .withWaitStrategy(Wait.forHealthCheck())
      .withStartupTimeout(120_000)
      .start();
    url = `http://${container.getHost()}:${container.getMappedPort(7432)}`;
  }, 150_000);

  afterAll(async () => {
    await container?.stop({ timeout: 10_000 });
  }, 30_000);

  it('turns healthy through its own HEALTHCHECK (GET /health) and answers /ready', async () => {
    const inspected = JSON.parse(
      await runOk(
        ['docker', 'image', 'inspect', '--format', '{{json .Config.Healthcheck}}', GATEWAY_IMAGE],
        {
          timeoutMs: 15_000,
        },
      ),
    ) as { Test: string[] };
    expect(inspected.Test.join(' ')).toContain('/health');
    expect((await fetch(`${url}/ready`)).status).toBe(200);
    const status = await fetch(`${url}/api/v1/status`, { headers: { 'X-API-Key': apiKey } });
    expect(status.status).toBe(200);
    expect((await fetch(`${url}/api/v1/status`)).status).toBe(401);
  });

  it('alone it has no wall for skills: /status says they are refused, and why', async () => {
    const status = await fetch(`${url}/api/v1/status`, { headers: { 'X-API-Key': apiKey } });
    const backends = ((await status.json()) as { backends: Record<string, string> }).backends;
    // No bubblewrap in the image, and Docker's default seccomp profile refuses user namespaces.
    expect(backends.skills).toMatch(/^no wall: skills refused \(bubblewrap is not installed\)/);
  });

  it('runs as the unprivileged node user, its state directory private to it', async () => {
    const id = await container?.exec(['id', '-u']);
    expect(id?.output.trim()).toBe('1000');
    const data = await container?.exec(['stat', '-c', '%u %a', '/data']);
    expect(data?.output.trim()).toBe('1000 700');
    const user = await runOk(
      ['docker', 'image', 'inspect', '--format', '{{.Config.User}}', GATEWAY_IMAGE],
      {
        timeoutMs: 15_000,
      },
    );
    expect(user.trim()).toBe('node');
  });

  it('will not listen on every interface without an API key', async () => {
    const result = await run(['docker', 'run', '--rm', GATEWAY_IMAGE], { timeoutMs: 60_000 });
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/api_key/);
  });

  it('reports its size', async () => {
    const bytes = Number(
      await runOk(['docker', 'image', 'inspect', '--format', '{{.Size}}', GATEWAY_IMAGE], {
        timeoutMs: 15_000,
      }),
    );
    process.stdout.write(`${GATEWAY_IMAGE}: ${(bytes / 1e6).toFixed(0)} MB\n`);
    expect(bytes).toBeGreaterThan(0);
  });
});
