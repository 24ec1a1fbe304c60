/**
 * Test helper: the sandbox-executor sidecar as a real process (`node src/main.ts`, process
 * backend) on a free loopback port, or on a Unix socket (`unix: true`: `url` is then
 * `unix:<path>`), with its skill hosts under a throwaway folder. `wrap` runs it under another
 * command (containerLike(): as in the compose stack's skill-host container).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SIDECAR_DIR = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../../../sidecars/sandbox-executor',
);

export interface SidecarProcess {
  url: string;
  token: string;
  /** Where the sidecar keeps skill hosts (`hosts/`) and their data folders (`data/<name>`). */
  skillsDir: string;
  child: ChildProcess;
  /** The sidecar's log lines so far. */
  log(): string;
  stop(): Promise<void>;
}

export async function startSidecarProcess(
  env: Record<string, string> = {},
  options: {
    unix?: boolean;
    /** A command to run the sidecar under, given the skills folder (bound into it). */
    wrap?: (skillsDir: string) => readonly string[];
  } = {},
): Promise<SidecarProcess> {
  const skillsDir = await mkdtemp(join(tmpdir(), 'hearth-sidecar-skills-'));
  const socket = options.unix ? join(skillsDir, 'sandbox.sock') : null;
  const token = 'sidecar-skills-test-token-0123456789';
  const [file, ...args] = [...(options.wrap?.(skillsDir) ?? []), process.execPath, 'src/main.ts'];
  const child = spawn(file, args, {
    cwd: SIDECAR_DIR,
    env: {
      PATH: '/usr/local/bin:/usr/bin:/bin',
      SANDBOX_TOKEN: token,
      SANDBOX_PORT: '0',
      SANDBOX_BACKEND: 'process',
      SANDBOX_SKILLS_DIR: skillsDir,
      SANDBOX_LOG_LEVEL: 'info',
      ...(socket ? { SANDBOX_SOCKET: socket } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listening = new Promise<number>((resolvePort, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the sidecar did not start:\n${output}`)),
      30_000,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const line = output.split('\n').find((text) => text.includes('sandbox-executor listening'));
      if (line) {
        clearTimeout(timer);
        resolvePort(Number((JSON.parse(line) as { port?: number }).port ?? 0));
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the sidecar exited (${code}):\n${output}`));
    });
  });
  let port: number;
  try {
    port = await listening;
  } catch (error) {
    child.kill('SIGKILL'); // a sidecar that did not come up is not left behind
    await rm(skillsDir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: socket ? `unix:${socket}` : `http://127.0.0.1:${port}`,
    token,
    skillsDir,
    child,
    log: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(skillsDir, { recursive: true, force: true });
    },
  };
}

/** Where the repository and the Node binary live: what the sidecar needs to run. */
const REPO_ROOT = resolve(SIDECAR_DIR, '../..');

/**
 * A command that runs the sidecar as the compose stack's skill-host container runs it: a
 * network namespace with no interface but loopback (`network_mode: none`) and a file system of
 * its own, holding the system, the repository and Node read-only, and only its skills folder
 * (with its socket) writable; a fresh /tmp, so no Unix socket of this machine's /tmp is there.
 * Built with bubblewrap, which must work here.
 */
export function containerLike(skillsDir: string): string[] {
  const system = ['/usr', '/lib', '/lib64', '/bin', '/sbin', '/etc'].flatMap((dir) => [
    '--ro-bind-try',
    dir,
    dir,
  ]);
  return [
    'bwrap',
    '--unshare-all',
    '--die-with-parent',
    ...system,
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--tmpfs',
    '/tmp',
    '--ro-bind',
    REPO_ROOT,
    REPO_ROOT,
    '--ro-bind',
    dirname(process.execPath),
    dirname(process.execPath),
    '--bind',
    skillsDir,
    skillsDir,
    '--chdir',
    SIDECAR_DIR,
    '--',
  ];
}
