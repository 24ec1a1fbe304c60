/**
 * The escape suite (testing/escape-suite.ts) in every isolation mode Hearth supports: a skill
 * with `network: false` reaches no TCP listener (loopback or a LAN-like address), no Unix
 * socket, neither the gateway's REST API nor Redis, and no other session's cache, wherever
 * it is hosted; and where no wall exists it is not hosted at all. A control runs the same
 * tools with plain Node under its permission model (no skill runtime, no wall) and shows they
 * do get out there, so the suite measures the walls, not a broken skill. (Hosted skills also
 * lose the socket-opening modules in the runtime, a second line; bubblewrap.test.ts proves the
 * kernel wall alone with plain Node inside bubblewrap.)
 * A mode this machine cannot build is skipped with the reason in its title.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
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

const execFileAsync = promisify(execFile);

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

  describe('control: the same tools run by plain Node under its permission model (no runtime, no wall)', () => {
    let fixture: SkillFixture;
    let targets: EscapeTargets;
    let file: string;
    /**
     * Runs one tool of the skill module directly: `node --permission` reading only the skill
     * (asynchronously: the targets listen in this process).
     */
    const run = async (entry: EscapeAttempt): Promise<Outcome> => {
      const harness =
        'const [file, tool, args] = process.argv.slice(1); const skill = await import(file);' +
        ' try { process.stdout.write(String(await skill[tool](JSON.parse(args)))); }' +
        ' catch (error) { process.stdout.write("FAILED: " + error.message); }';
      const child = await execFileAsync(
        process.execPath,
        [
          '--permission',
          `--allow-fs-read=${file}`,
          '--input-type=module',
          '-e',
          harness,
          file,
          entry.tool,
          JSON.stringify(entry.args),
        ],
        { encoding: 'utf8', timeout: 20_000 },
      );
      const text = child.stdout;
      return { ok: text.startsWith('ESCAPED: '), text };
    };
    beforeAll(async () => {
      targets = await openEscapeTargets();
      fixture = await createSkillFixture();
      const written = await fixture.write('escape', 'mjs', ESCAPE_SKILL_MJS);
      file = join(written.dir, 'skill.mjs');
    }, 60_000);
    afterAll(async () => {
      await targets?.close();
      await fixture?.remove();
    });

    it('gets through to loopback, a Unix socket and the REST API: the attempts are real, so the walls above are what stop them', async () => {
      const byTool = (tool: string) => targets.attempts.find((entry) => entry.tool === tool)!;
      for (const tool of ['tcp', 'unixSocket', 'approve']) {
        const entry = byTool(tool);
        const outcome = await run(entry);
        expect(outcome, entry.what).toMatchObject({ ok: true });
        expect(entry.hits!()).toBe(1);
      }
      // The file system is the one thing the permission model does wall off.
      expect((await run(byTool('readFile'))).ok).toBe(false);
    }, 60_000);
  });
});
