/**
 * Skill hosts in throwaway containers (the sidecar's docker backend) on a real engine. Skipped,
 * with the reason in the title, when no engine answers or the Node image is not built here.
 */
import { execFileSync } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
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
const TOKEN = 'docker-skills-test-token-0123456789';

function engineAndImage(): string | null {
  try {
    execFileSync('docker', ['image', 'inspect', IMAGE], { stdio: 'ignore', timeout: 20_000 });
    return null;
  } catch {
    return `no Docker engine answers, or ${IMAGE} is not built (scripts/build-images.sh)`;
  }
}
const missing = engineAndImage();

const PY_SKILL = `
import os
import socket

def add(a: int, b: int) -> int:
    """Adds."""
    return a + b

def whoami() -> str:
    """Who it runs as."""
    return str(os.getuid())

def write_outside() -> str:
    """Tries to write outside its data folder."""
    try:
        with open('/etc/planted', 'w') as f:
            f.write('x')
        return 'written'
    except OSError as error:
        return 'refused: ' + type(error).__name__

def connect_out() -> str:
    """Tries the network."""
    try:
        socket.create_connection(('1.1.1.1', 80), timeout=3)
        return 'connected'
    except OSError as error:
        return 'refused: ' + type(error).__name__
`;

const SKILL = `
import { readFileSync } from 'node:fs';
/**
 * Adds.
 * @param {number} a
 * @param {number} b
 */
export function add(a, b) { return a + b; }
/** Tries to start a process. */
export function spawnShell() {
  return String(process.getBuiltinModule('child_process').execFileSync('/bin/sh', ['-c', 'id']));
}
/** Reads outside its folders. */
export function passwd() { return readFileSync('/etc/passwd', 'utf8'); }
/** Where it runs. */
export function whoami() { return process.getuid() + ' ' + process.env.HOME; }
/** Ends its own process. */
export function crash() { process.exit(4); }
`;

describe.skipIf(missing !== null)(
  `skill hosts in containers (docker backend)${missing ? ` — skipped: ${missing}` : ''}`,
  () => {
    let server: Server;
    let fixture: SkillFixture;
    let isolation: SkillIsolation;
    let workdir: string;
    let launcher: ReturnType<typeof createDockerLauncher>;

    beforeAll(async () => {
      workdir = await mkdtemp(join(tmpdir(), 'hearth-docker-skills-'));
      launcher = createDockerLauncher({
        docker: new Docker(),
        image: IMAGE,
        logger: silentSidecarLogger(),
      });
      server = createSandboxServer({
        backend: createProcessBackend({ defaultWorkdir: workdir, logger: silentSidecarLogger() }),
        token: TOKEN,
        logger: silentSidecarLogger(),
        skills: {
          launcher,
        },
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
      await launcher?.close(); // every container removed, none left behind
      await new Promise((resolve) => server?.close(resolve));
      await fixture?.remove();
      await rm(workdir, { recursive: true, force: true });
    });

    it('a skill answers from its container, as nobody, behind the permission model', async () => {
      const host = await isolation.start(await fixture.write('boxed', 'mjs', SKILL));
      try {
        expect(await host.call('add', { a: 20, b: 22 })).toBe('42');
        expect(await host.call('whoami', {})).toBe('65534 /skillhost/data');
        for (const tool of ['spawnShell', 'passwd'])
          await expect(host.call(tool, {})).rejects.toBeInstanceOf(SkillCallError);
        await expect(host.call('crash', {})).rejects.toMatchObject({ reason: 'crashed' });
        expect(await host.call('add', { a: 1, b: 1 })).toBe('2'); // a fresh container
        expect(isolation.description).toBe(
          'sandbox sidecar (container, wall: a container per host)',
        );
      } finally {
        await host.close();
      }
      await launcher.close();
      const left = execFileSync('docker', [
        'ps',
        '-aq',
        '--filter',
        'label=io.hearth.sandbox=skill',
      ]);
      expect(left.toString().trim()).toBe(''); // every container removed
    }, 120_000);

    it('a start frame asking for network still gets a container with none (the gateway makes skills’ requests)', async () => {
      const runtimeDir = join(import.meta.dirname, 'runtime');
      const runtime = await Promise.all(
        ['runtime.mjs', 'skill-api.mjs', 'runtime.py'].map(async (path) => ({
          path,
          bytes: await readFile(join(runtimeDir, path)),
        })),
      );
      // The real engine, with the id of each container it creates noted.
      const docker = new Docker();
      const created: string[] = [];
      const noting = Object.create(docker) as Docker;
      noting.createContainer = async (options: Parameters<Docker['createContainer']>[0]) => {
        const container = await docker.createContainer(options);
        created.push(container.id);
        return container;
      };
      const launcherNoting = createDockerLauncher({
        docker: noting,
        image: IMAGE,
        logger: silentSidecarLogger(),
      });
      const hosted = await launcherNoting.start(
        {
          name: 'asks_network',
          kind: 'mjs',
          network: true,
          files: [{ path: 'skill.mjs', bytes: Buffer.from(SKILL) }],
          runtime,
          maxOldSpaceMb: 64,
        },
        { stdout: () => undefined, stderr: () => undefined, exit: () => undefined },
      );
      try {
        expect(created).toHaveLength(1);
        const mode = execFileSync('docker', [
          'inspect',
          '-f',
          '{{.HostConfig.NetworkMode}}',
          created[0]!,
        ]);
        expect(mode.toString().trim()).toBe('none');
      } finally {
        hosted.kill();
        await launcherNoting.close();
      }
    }, 120_000);

    it('a skill.py answers from its container too, as nobody, on a read-only root without network', async () => {
      const host = await isolation.start(await fixture.write('boxed_py', 'py', PY_SKILL));
      try {
        expect(await host.call('add', { a: 40, b: 2 })).toBe('42');
        expect(await host.call('whoami', {})).toBe('65534');
        expect(await host.call('write_outside', {})).toMatch(/^refused: /);
        expect(await host.call('connect_out', {})).toMatch(/^refused: /);
      } finally {
        await host.close();
      }
    }, 120_000);
  },
);
