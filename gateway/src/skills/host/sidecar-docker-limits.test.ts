/**
 * Resource limits of skill hosts in containers (the sidecar's docker backend) on a real engine:
 * the container's ulimits refuse files past the open-file and file-size limits, and a host at
 * its CPU-time limit is stopped with the limit named. Skipped, with the reason in the title,
 * when no engine answers or the Node image is not built here.
 */
import { execFileSync } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDockerLauncher,
  createProcessBackend,
  createSandboxServer,
  Docker,
  silentLogger as silentSidecarLogger,
} from '../../../../sidecars/sandbox-executor/src/index.ts';
import { silentLogger } from '../../observability/logger.ts';
import type { SkillIsolation } from '../types.ts';
import { SkillCallError } from './errors.ts';
import { createSidecarSkillIsolation } from './sidecar-isolation.ts';
import { createSkillFixture, type SkillFixture } from './testing/skill-fixture.ts';

/** Node 24 and python3: the skill-host image scripts/build-images.sh builds. */
const IMAGE = 'hearth-skillhost:local';
const TOKEN = 'docker-limits-test-token-0123456789';

function engineAndImage(): string | null {
  try {
    execFileSync('docker', ['image', 'inspect', IMAGE], { stdio: 'ignore', timeout: 20_000 });
    return null;
  } catch {
    return `no Docker engine answers, or ${IMAGE} is not built (scripts/build-images.sh)`;
  }
}
const missing = engineAndImage();

const HOSTILE = `
import { openSync, writeFileSync } from 'node:fs';

/** Burns CPU for a while within one call. */
export function burn() {
  const until = Date.now() + 8000;
  let count = 0;
  while (Date.now() < until) count += 1;
  return count;
}

/** Opens files until it cannot. */
export function openFiles() {
  const fds = [];
  try {
    for (let index = 0; index < 10000; index += 1) fds.push(openSync('.', 'r'));
    return 'opened ' + fds.length;
  } catch (error) {
    return error.code + ' after ' + fds.length;
  }
}

/** Writes one 8 MB file. */
export function hugeFile() {
  try {
    writeFileSync('huge.bin', Buffer.alloc(8 * 1024 * 1024, 1));
    return 'written';
  } catch (error) {
    return error.code;
  }
}
`;

describe.skipIf(missing !== null)(
  `resource limits of skill hosts in containers (docker backend)${missing ? ` — skipped: ${missing}` : ''}`,
  () => {
    let server: Server;
    let fixture: SkillFixture;
    let isolation: SkillIsolation;
    let workdir: string;
    let launcher: ReturnType<typeof createDockerLauncher>;

    beforeAll(async () => {
      workdir = await mkdtemp(join(tmpdir(), 'hearth-docker-limits-'));
      launcher = createDockerLauncher({
        docker: new Docker(),
        image: IMAGE,
        logger: silentSidecarLogger(),
        limits: { cpuSeconds: 3, maxFiles: 48, maxFileMb: 2 },
      });
      server = createSandboxServer({
        backend: createProcessBackend({ defaultWorkdir: workdir, logger: silentSidecarLogger() }),
        token: TOKEN,
        logger: silentSidecarLogger(),
        skills: { launcher },
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      isolation = createSidecarSkillIsolation({
        url: `http://127.0.0.1:${port}`,
        token: () => TOKEN,
        logger: silentLogger(),
        limits: { startTimeoutMs: 60_000, callTimeoutMs: 30_000 },
      });
      fixture = await createSkillFixture();
    }, 60_000);
    afterAll(async () => {
      server?.closeAllConnections();
      await launcher?.close();
      await new Promise((resolve) => server?.close(resolve));
      await fixture?.remove();
      await rm(workdir, { recursive: true, force: true });
    });

    it('refuses files past the open-file and file-size limits; stops a host at its CPU-time limit', async () => {
      const limits: string[] = [];
      const options = await fixture.write('boxed', 'mjs', HOSTILE);
      const host = await isolation.start({ ...options, onLimit: (reason) => limits.push(reason) });
      try {
        expect(await host.call('hugeFile', {})).toBe('EFBIG');
        const opened = await host.call('openFiles', {});
        expect(opened).toMatch(/^EMFILE after \d+$/);
        expect(Number(opened.split(' ').pop())).toBeLessThan(48);

        const error = await host.call('burn', {}).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(SkillCallError);
        expect(error).toMatchObject({
          reason: 'limit',
          message:
            'skill boxed: the skill host was stopped: it used its 3 s of CPU time (SANDBOX_SKILL_CPU_SECONDS)',
        });
        expect(limits).toHaveLength(1);
      } finally {
        await host.close();
      }
    }, 90_000);
  },
);
