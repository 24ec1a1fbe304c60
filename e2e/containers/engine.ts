/**
 * What the container suites share: whether a Docker engine, a compose client and the images of
 * scripts/build-images.sh are here (a reason to skip when not), and small process helpers.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
/** The tag scripts/build-images.sh gives (HEARTH_IMAGE_TAG). */
export const IMAGE_TAG = process.env.HEARTH_IMAGE_TAG || 'local';
export const GATEWAY_IMAGE = `hearth:${IMAGE_TAG}`;

function succeeds(command: string, args: readonly string[]): boolean {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    timeout: 15_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return result.error === undefined && result.status === 0;
}

/** Why no container suite can run here, or null when an engine answers. */
export function engineUnavailableReason(): string | null {
  if (process.env.HEARTH_E2E_CONTAINERS === '0') return 'HEARTH_E2E_CONTAINERS=0';
  const info = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], {
    encoding: 'utf8',
    timeout: 15_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (info.error && 'code' in info.error && info.error.code === 'ENOENT') {
    return 'docker CLI not installed';
  }
  if (info.error || info.status !== 0) return 'no Docker engine reachable';
  return null;
}

/** The compose client: the `docker compose` plugin, else Debian's `docker-compose`. */
export function composeCommand(): readonly string[] | null {
  if (succeeds('docker', ['compose', 'version'])) return ['docker', 'compose'];
  if (succeeds('docker-compose', ['version'])) return ['docker-compose'];
  return null;
}

export function imageExists(image: string): boolean {
  return succeeds('docker', ['image', 'inspect', image]);
}

/** The images a suite needs that are missing, as a skip reason, or null. */
export function missingImagesReason(images: readonly string[]): string | null {
  const missing = images.filter((image) => !imageExists(image));
  return missing.length === 0
    ? null
    : `images not built (${missing.join(', ')}): run scripts/build-images.sh`;
}

export interface RunResult {
  code: number | null;
  output: string;
}

/** Runs a command to completion (killed after `timeoutMs`), collecting stdout and stderr. */
export function run(
  command: readonly string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<RunResult> {
  const [program, ...args] = command;
  if (program === undefined) throw new Error('run: empty command');
  return new Promise((resolve) => {
    const child = spawn(program, args, {
      cwd: repoRoot,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const timer = setTimeout(() => {
      output += `\n[killed after ${options.timeoutMs} ms]`;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, output: `${output}\n${error.message}` });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Like `run`, but a non-zero exit throws with the output. */
export async function runOk(
  command: readonly string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<string> {
  const result = await run(command, options);
  if (result.code !== 0) {
    throw new Error(`${command.join(' ')} exited ${result.code}:\n${result.output}`);
  }
  return result.output;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port assigned');
  return address.port;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every second until it returns a value, or throws `describe()` after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs: number,
  describe: () => Promise<string> | string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() >= deadline) throw new Error(await describe());
    await sleep(1_000);
  }
}
