/**
 * The behaviour every `Executor` must show, as a vitest suite. An adapter's test calls
 * `runExecutorConformance(name, create, options)`. A test an adapter cannot pass is listed in
 * `skip` with the reason, which appears in the test title.
 *
 * Files the tests write are checked through the executor itself (`test -e …`), never on the
 * host's disk, so the same suite runs against a container whose work area is a volume.
 * Before `create` is called, a fake provider key is put into this process's environment; the
 * suite proves no child ever sees it.
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecRequest, ExecResult, Executor } from './ports.ts';

export const EXECUTOR_CONFORMANCE_TESTS = [
  'runs a command and reports exit code 0 and its stdout',
  'keeps stderr separate from stdout',
  'reports a non-zero exit code',
  'runs in the requested workdir',
  'passes exactly the given environment and nothing of its own process',
  'a timeout kills the whole process group, a background grandchild included',
  'an abort kills the whole process group',
  'an already aborted signal runs nothing',
  'caps stdout and stderr and says it truncated',
  'a command that does not exist exits 127',
  'runs calls concurrently without mixing their output',
] as const;

export type ExecutorConformanceTest = (typeof EXECUTOR_CONFORMANCE_TESTS)[number];

/** A directory the executor can run in and write to, and how to remove it afterwards. */
export interface ConformanceScratch {
  create(executor: Executor): Promise<string>;
  remove(executor: Executor, path: string): Promise<void>;
}

export interface ExecutorConformanceOptions {
  skip?: { reason: string; tests: ExecutorConformanceTest[] }[];
  /** Default: a fresh temporary directory on this machine. */
  scratch?: ConformanceScratch;
  /**
   * Variables the shell or runtime adds by itself, allowed beside the given ones in `printenv`
   * (default PWD, OLDPWD, SHLVL, _; a container adds HOSTNAME and HOME).
   */
  runtimeEnvNames?: string[];
}

/** The fake key put into this process's environment; no child may see it. */
export const FAKE_PROVIDER_KEY = 'sk-ant-conformance-0000-not-a-real-key-0000';
/** Every call passes PATH explicitly, valid on a Debian host and in a Debian image alike. */
export const CONFORMANCE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const DEFAULT_RUNTIME_ENV_NAMES = ['PWD', 'OLDPWD', 'SHLVL', '_'];

export const hostScratch: ConformanceScratch = {
  async create() {
    return realpath(await mkdtemp(join(tmpdir(), 'hearth-executor-conformance-')));
  },
  async remove(_executor, path) {
    await rm(path, { recursive: true, force: true });
  },
};

// Test support, not configuration: the suite plants a fake provider key in this process's
// environment to prove that no executor passes it on.
// eslint-disable-next-line no-restricted-properties
const processEnv = process.env;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(100);
  }
}

export function runExecutorConformance(
  name: string,
  create: () => Executor | Promise<Executor>,
  options: ExecutorConformanceOptions = {},
): void {
  const scratch = options.scratch ?? hostScratch;
  const runtimeEnvNames = new Set(options.runtimeEnvNames ?? DEFAULT_RUNTIME_ENV_NAMES);
  const skipped = new Map<string, string>();
  for (const entry of options.skip ?? []) {
    if (entry.reason.trim() === '') throw new Error('a skipped conformance test needs a reason');
    for (const test of entry.tests) skipped.set(test, entry.reason);
  }

  describe(`Executor conformance: ${name}`, () => {
    let executor: Executor;
    let workdir: string;
    let previousKey: string | undefined;

    const run = (request: Partial<ExecRequest> & { command: string }): Promise<ExecResult> =>
      executor.run({
        timeoutSeconds: 20,
        workdir,
        ...request,
        env: { PATH: CONFORMANCE_PATH, ...request.env },
      });

    /** Runs a check through the executor itself: the work area may not be on this machine. */
    const fileExists = async (file: string): Promise<boolean> => {
      const result = await run({ command: `test -e '${file}' && echo yes || echo no` });
      return result.stdout.trim() === 'yes';
    };

    const test = (title: ExecutorConformanceTest, body: () => Promise<void>, timeout?: number) => {
      const reason = skipped.get(title);
      if (reason === undefined) it(title, body, timeout);
      else it.skip(`${title} (skipped: ${reason})`, body);
    };

    beforeAll(async () => {
      previousKey = processEnv.ANTHROPIC_API_KEY;
      processEnv.ANTHROPIC_API_KEY = FAKE_PROVIDER_KEY;
      executor = await create();
      workdir = await scratch.create(executor);
    });

    afterAll(async () => {
      if (workdir) await scratch.remove(executor, workdir);
      await executor?.close();
      if (previousKey === undefined) delete processEnv.ANTHROPIC_API_KEY;
      else processEnv.ANTHROPIC_API_KEY = previousKey;
    });

    test('runs a command and reports exit code 0 and its stdout', async () => {
      const result = await run({ command: 'echo hello' });
      expect(result).toMatchObject({
        exitCode: 0,
        signal: null,
        stdout: 'hello\n',
        stderr: '',
        timedOut: false,
        truncated: false,
      });
      expect(result.durationMs).toBeGreaterThanOrEqual(0);
    });

    test('keeps stderr separate from stdout', async () => {
      const result = await run({ command: 'echo out; echo err >&2; echo out2' });
      expect(result.stdout).toBe('out\nout2\n');
      expect(result.stderr).toBe('err\n');
      expect(result.exitCode).toBe(0);
    });

    test('reports a non-zero exit code', async () => {
      const result = await run({ command: 'echo failing >&2; exit 3' });
      expect(result).toMatchObject({ exitCode: 3, signal: null, timedOut: false });
      expect(result.stderr).toBe('failing\n');
    });

    test('runs in the requested workdir', async () => {
      await run({ command: 'mkdir -p sub' });
      const result = await run({ command: 'pwd', workdir: `${workdir}/sub` });
      expect(result.stdout).toBe(`${workdir}/sub\n`);
      expect(result.exitCode).toBe(0);
    });

    test('passes exactly the given environment and nothing of its own process', async () => {
      const given = { HEARTH_CONFORMANCE: 'yes', WITH_SPACES: 'a b  c', EMPTY: '' };
      const result = await run({ command: 'printenv', env: given });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).not.toContain(FAKE_PROVIDER_KEY);
      const seen = new Map<string, string>();
      for (const line of result.stdout.split('\n').filter(Boolean)) {
        const at = line.indexOf('=');
        seen.set(line.slice(0, at), line.slice(at + 1));
      }
      expect(seen.has('ANTHROPIC_API_KEY')).toBe(false);
      for (const [key, value] of Object.entries({ PATH: CONFORMANCE_PATH, ...given })) {
        expect(seen.get(key), key).toBe(value);
      }
      const unexpected = [...seen.keys()].filter(
        (key) => !(key in given) && key !== 'PATH' && !runtimeEnvNames.has(key),
      );
      expect(unexpected).toEqual([]);
    });

    test('a timeout kills the whole process group, a background grandchild included', async () => {
      const result = await run({
        command: '(echo started > t-started; sleep 1.5; echo late > t-late) & sleep 30',
        timeoutSeconds: 0.75,
      });
      expect(result).toMatchObject({ exitCode: null, signal: 'SIGKILL', timedOut: true });
      expect(result.durationMs).toBeLessThan(10_000);
      expect(await fileExists('t-started')).toBe(true); // the grandchild did run …
      await sleep(2_000);
      expect(await fileExists('t-late')).toBe(false); // … and was killed with the group
    }, 30_000);

    test('an abort kills the whole process group', async () => {
      const controller = new AbortController();
      const pending = run({
        command: '(echo started > a-started; sleep 3; echo late > a-late) & sleep 30',
        signal: controller.signal,
      });
      await waitUntil(() => fileExists('a-started'), 15_000); // running, grandchild included
      const abortedAt = performance.now();
      controller.abort();
      const result = await pending;
      expect(performance.now() - abortedAt).toBeLessThan(5_000);
      expect(result).toMatchObject({ exitCode: null, timedOut: false });
      await sleep(3_500);
      expect(await fileExists('a-late')).toBe(false);
    }, 30_000);

    test('an already aborted signal runs nothing', async () => {
      const result = await run({ command: 'echo ran > pre-aborted', signal: AbortSignal.abort() });
      expect(result).toMatchObject({ exitCode: null, timedOut: false });
      expect(await fileExists('pre-aborted')).toBe(false);
    });

    test('caps stdout and stderr and says it truncated', async () => {
      const out = await run({ command: 'yes | head -c 1000000', maxOutputBytes: 1000 });
      expect(out.exitCode).toBe(0);
      expect(out.truncated).toBe(true);
      expect(Buffer.byteLength(out.stdout)).toBeLessThanOrEqual(1000);
      expect(out.stdout.startsWith('y\ny\ny\n')).toBe(true);

      const err = await run({ command: 'yes err | head -c 1000000 >&2', maxOutputBytes: 1000 });
      expect(err.truncated).toBe(true);
      expect(Buffer.byteLength(err.stderr)).toBeLessThanOrEqual(1000);
      expect(err.stdout).toBe('');

      const small = await run({ command: 'printf 12345', maxOutputBytes: 5 });
      expect(small).toMatchObject({ stdout: '12345', truncated: false });
    });

    test('a command that does not exist exits 127', async () => {
      const result = await run({ command: 'hearth-no-such-command-0f3a --version' });
      expect(result.exitCode).toBe(127);
      expect(result.stderr).toMatch(/not found/i);
    });

    test('runs calls concurrently without mixing their output', async () => {
      // One call alone first: six in a row would take six times as long, so four times is a
      // bound that holds on a loaded machine (or engine) and still fails a serial executor.
      const single = performance.now();
      await run({ command: 'sleep 1; echo "call $N"', env: { N: 'alone' } });
      const oneCallMs = performance.now() - single;
      const started = performance.now();
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          run({ command: 'sleep 1; echo "call $N"', env: { N: String(index) } }),
        ),
      );
      expect(results.map((result) => result.stdout)).toEqual(
        Array.from({ length: 6 }, (_, index) => `call ${index}\n`),
      );
      expect(performance.now() - started).toBeLessThan(4 * oneCallMs);
    });
  });
}
