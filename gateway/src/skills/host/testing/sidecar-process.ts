/**
 * Test helper: the sandbox-executor sidecar as a real process (`node src/main.ts`, process
 * backend) on a free loopback port, with its skill hosts under a throwaway folder.
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
): Promise<SidecarProcess> {
  const skillsDir = await mkdtemp(join(tmpdir(), 'hearth-sidecar-skills-'));
  const token = 'sidecar-skills-test-token-0123456789';
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: SIDECAR_DIR,
    env: {
      PATH: '/usr/local/bin:/usr/bin:/bin',
      SANDBOX_TOKEN: token,
      SANDBOX_PORT: '0',
      SANDBOX_BACKEND: 'process',
      SANDBOX_SKILLS_DIR: skillsDir,
      SANDBOX_LOG_LEVEL: 'info',
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
        resolvePort(Number((JSON.parse(line) as { port: number }).port));
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
    url: `http://127.0.0.1:${port}`,
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
