/**
 * The escape suite (testing/escape-suite.ts) in every isolation mode Hearth supports: a skill
 * with `network: false` reaches no TCP listener (loopback or a LAN-like address), no Unix
 * socket, neither the gateway's REST API nor Redis, and no other session's cache, wherever
 * it is hosted; and where no wall exists it is not hosted at all. A control run behind Node's
 * permission model alone (the owner's explicit opt-out) shows the same skill does get out
 * there, so the suite measures the wall, not a broken skill.
 * A mode this machine cannot build is skipped with the reason in its title.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
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
import { HearthError } from '../../errors.ts';
import { silentLogger } from '../../observability/logger.ts';
import type { SkillHost, SkillIsolation } from '../types.ts';
import { SkillCallError } from './errors.ts';
import { createSkillIsolation } from './isolation.ts';
import { sidecarHealth } from './sidecar-address.ts';
import { createSidecarSkillIsolation } from './sidecar-isolation.ts';
import {
  ESCAPE_SKILL_MJS,
  openEscapeTargets,
  type EscapeAttempt,
  type EscapeTargets,
} from './testing/escape-suite.ts';
import {
  containerLike,
  startSidecarProcess,
  type SidecarProcess,
} from './testing/sidecar-process.ts';
import { createSkillFixture, type SkillFixture } from './testing/skill-fixture.ts';

interface Outcome {
  ok: boolean;
  text: string;
}

async function attempt(host: SkillHost, entry: EscapeAttempt): Promise<Outcome> {
  try {
    return { ok: true, text: await host.call(entry.tool, entry.args, { timeoutMs: 20_000 }) };
  } catch (error) {
    expect(error).toBeInstanceOf(SkillCallError); // a tool error, never anything else
    return { ok: false, text: (error as Error).message };
  }
}

interface Mode {
  isolation: SkillIsolation;
  close?: () => Promise<void>;
}

/** The suite against one walled mode: every attempt fails, and nothing reached its target. */
function describeWalled(title: string, skipped: string | null, make: () => Promise<Mode>): void {
  describe.skipIf(skipped !== null)(
    skipped === null ? title : `${title} (skipped: ${skipped})`,
    () => {
      let mode: Mode | undefined;
      let fixture: SkillFixture;
      let targets: EscapeTargets;
      let host: SkillHost;
      beforeAll(async () => {
        targets = await openEscapeTargets();
        fixture = await createSkillFixture();
        mode = await make();
        host = await mode.isolation.start(await fixture.write('escape', 'mjs', ESCAPE_SKILL_MJS));
      }, 120_000);
      afterAll(async () => {
        await host?.close();
        await mode?.close?.();
        await targets?.close();
        await fixture?.remove();
      }, 60_000);

      it('no TCP (loopback, LAN-like), no Unix socket, no self-approval over REST or Redis, no other session’s cache', async () => {
        const report: string[] = [];
        for (const entry of targets.attempts) {
          if (entry.skipped) {
            report.push(`${entry.what}: not tried (${entry.skipped})`);
            continue;
          }
          const outcome = await attempt(host, entry);
          report.push(`${entry.what}: ${outcome.ok ? 'GOT THROUGH' : 'refused'}`);
          expect(outcome.ok, `${entry.what}: ${outcome.text}`).toBe(false);
          expect(outcome.text).not.toContain('ESCAPED');
          expect(outcome.text).not.toContain(targets.secret);
          expect(entry.hits?.() ?? 0, `${entry.what} reached its target`).toBe(0);
        }
        expect(report.filter((line) => line.endsWith('refused')).length).toBeGreaterThanOrEqual(4);
      }, 180_000);
    },
  );
}

const probe = createSkillIsolation({ executor: 'local', logger: silentLogger() });
const bubblewrap =
  probe.description === 'bubblewrap+permission'
    ? null
    : `bubblewrap cannot build a sandbox here (${probe.description})`;

/** The compose skill-host container is emulated with bubblewrap (testing/sidecar-process.ts). */
const containerEmulation =
  bubblewrap === null && spawnSync('bwrap', ['--version'], { stdio: 'ignore' }).status === 0
    ? null
    : 'bubblewrap, which emulates the container here, does not work';

const SKILL_IMAGE = 'hearth-skillhost:local';
function dockerImage(): string | null {
  try {
    execFileSync('docker', ['image', 'inspect', SKILL_IMAGE], { stdio: 'ignore', timeout: 20_000 });
    return null;
  } catch {
    return `no Docker engine answers, or ${SKILL_IMAGE} is not built (scripts/build-images.sh)`;
  }
}

describe('the escape suite in every isolation mode', () => {
  describeWalled('local hosts inside bubblewrap', bubblewrap, () =>
    Promise.resolve({ isolation: probe }),
  );

  /** The skill-host sidecar reached over its Unix socket, as the gateway of the compose stack does. */
  const sidecarMode =
    (env: Record<string, string>, wrap?: (dir: string) => string[], wall?: RegExp) =>
    async (): Promise<Mode> => {
      const sidecar: SidecarProcess = await startSidecarProcess(env, { unix: true, wrap });
      const health = await sidecarHealth(sidecar.url, {});
      if (wall) expect(health.skills_wall).toMatch(wall);
      const isolation = createSidecarSkillIsolation({
        url: sidecar.url,
        token: () => sidecar.token,
        logger: silentLogger(),
        limits: { startTimeoutMs: 30_000, callTimeoutMs: 30_000 },
      });
      return { isolation, close: () => sidecar.stop() };
    };

  describeWalled(
    'the sidecar’s process backend over its Unix socket, with bubblewrap',
    bubblewrap,
    sidecarMode({}, undefined, /^bubblewrap$/),
  );

  describeWalled(
    'the sidecar’s process backend over its Unix socket, without bubblewrap, with no network and a file system of its own (as the compose skill-host container)',
    containerEmulation,
    sidecarMode({ SANDBOX_BWRAP: 'none' }, containerLike, /^no network/),
  );

  describeWalled(
    'the sidecar’s docker backend (a container per host), over a Unix socket',
    dockerImage(),
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'hearth-escape-docker-'));
      const token = 'escape-docker-test-token-0123456789';
      const launcher = createDockerLauncher({
        docker: new Docker(),
        image: SKILL_IMAGE,
        logger: silentSidecarLogger(),
      });
      const server: Server = createSandboxServer({
        backend: createProcessBackend({ defaultWorkdir: dir, logger: silentSidecarLogger() }),
        token,
        logger: silentSidecarLogger(),
        skills: { launcher },
      });
      const socket = join(dir, 'sandbox.sock');
      await new Promise<void>((resolve) => server.listen(socket, resolve));
      return {
        isolation: createSidecarSkillIsolation({
          url: `unix:${socket}`,
          token: () => token,
          logger: silentLogger(),
          limits: { startTimeoutMs: 60_000, callTimeoutMs: 30_000 },
        }),
        async close() {
          server.closeAllConnections();
          await launcher.close();
          await new Promise((resolve) => server.close(resolve));
          await rm(dir, { recursive: true, force: true });
        },
      };
    },
  );

  describe('no wall: nothing is hosted', () => {
    let fixture: SkillFixture;
    beforeAll(async () => void (fixture = await createSkillFixture()));
    afterAll(() => fixture.remove());

    it('locally without bubblewrap: refused, saying why and how to get a wall', async () => {
      const isolation = createSkillIsolation({
        executor: 'local',
        logger: silentLogger(),
        bwrapPath: null,
      });
      expect(isolation.description).toBe('no wall: skills refused (bubblewrap is disabled)');
      const error = await isolation
        .start(await fixture.write('escape', 'mjs', ESCAPE_SKILL_MJS))
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(HearthError);
      expect((error as HearthError).code).toBe('unavailable');
      expect((error as Error).message).toMatch(
        /^no wall for skill 'escape': bubblewrap is disabled/,
      );
      expect((error as Error).message).toContain('apt install bubblewrap');
      expect((error as Error).message).toContain('[skills] host = "sidecar"');
      expect((error as Error).message).toContain('"without_wall": true');
      expect(isolation.running?.()).toBe(0);
    });

    it('in a sidecar with a network and no bubblewrap: refused, and its /health says so', async () => {
      const sidecar = await startSidecarProcess({ SANDBOX_BWRAP: 'none' }, { unix: true });
      try {
        const health = await sidecarHealth(sidecar.url, {});
        expect(health.skills_wall).toMatch(/^none: skills refused \(no wall for skill hosts/);
        const isolation = createSidecarSkillIsolation({
          url: sidecar.url,
          token: () => sidecar.token,
          logger: silentLogger(),
          limits: { startTimeoutMs: 30_000 },
        });
        await expect(
          isolation.start(await fixture.write('escape', 'mjs', ESCAPE_SKILL_MJS)),
        ).rejects.toThrow(/no wall for skill hosts: bubblewrap cannot build a sandbox here/);
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(isolation.description).toMatch(
          /^sandbox sidecar \(process, wall: none: skills refused/,
        );
      } finally {
        await sidecar.stop();
      }
    }, 60_000);
  });

  describe('control: Node’s permission model alone (the owner’s explicit opt-out)', () => {
    let fixture: SkillFixture;
    let targets: EscapeTargets;
    let host: SkillHost;
    const isolation = createSkillIsolation({
      executor: 'local',
      logger: silentLogger(),
      bwrapPath: null,
    });
    beforeAll(async () => {
      targets = await openEscapeTargets();
      fixture = await createSkillFixture({ withoutWall: true });
      host = await isolation.start(await fixture.write('escape', 'mjs', ESCAPE_SKILL_MJS));
    }, 60_000);
    afterAll(async () => {
      await host?.close();
      await targets?.close();
      await fixture?.remove();
    });

    it('gets through to loopback, a Unix socket and the REST API: why no skill runs there unasked', async () => {
      expect(isolation.description).toBe(
        "no wall: skills refused (bubblewrap is disabled); WITHOUT A WALL by the owner's opt-out: escape",
      );
      const byTool = (tool: string) => targets.attempts.find((entry) => entry.tool === tool)!;
      for (const tool of ['tcp', 'unixSocket', 'approve']) {
        const entry = byTool(tool);
        const outcome = await attempt(host, entry);
        expect(outcome, entry.what).toMatchObject({ ok: true });
        expect(outcome.text).toMatch(/^ESCAPED: /);
        expect(entry.hits!()).toBe(1);
      }
      // The file system is the one thing the permission model does wall off.
      expect((await attempt(host, byTool('readFile'))).ok).toBe(false);
    }, 60_000);
  });
});
