/** Test helpers: a fresh HEARTH_HOME, real dependencies with a captured output, a free port. */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { PassThrough, Readable } from 'node:stream';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readEnvironment, runGateway, type RunningGateway } from '@hearth/gateway';
import type { CliDeps, RunProgram } from '../deps.ts';
import { httpFetch } from '../http-fetch.ts';
import { bufferedOutput } from '../output.ts';
import { runCli } from '../run-cli.ts';

/** What the in-process harness reports instead of re-executing the test runner. */
export const TEST_RUNTIME = { allocator: 'system (in-process test)', heap: 'Node defaults' };

/**
 * The CLI's entry point in the sources, run directly by Node 24: what `start --background`
 * spawns in tests, so they exercise the current code rather than the last build in dist/.
 */
export const CLI_SOURCE_PATH = fileURLToPath(new URL('../main.ts', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Harness {
  home: string;
  /** Foreground gateways started through `start`, for the test to stop. */
  gateways: RunningGateway[];
  run(
    argv: readonly string[],
    variables?: Record<string, string>,
    input?: string[] | NodeJS.ReadableStream,
    options?: {
      isTTY?: boolean;
      fetch?: typeof fetch;
      platform?: NodeJS.Platform;
      /** Programs the command runs (xdg-open, systemctl, docker); none may run by default. */
      runProgram?: RunProgram;
      /** The CLI's own script, as process.argv[1] gives it (`update` finds its checkout by it). */
      binPath?: string;
      /** Where prompts go (to read them); a sink by default. */
      promptOutput?: NodeJS.WritableStream;
    },
  ): Promise<CliResult>;
  cleanup(): Promise<void>;
}

/** A fresh state directory; `run` calls the CLI in-process with HEARTH_HOME pointing at it. */
export async function createHarness(): Promise<Harness> {
  const home = await mkdtemp(join(tmpdir(), 'hearth-cli-'));
  const gateways: RunningGateway[] = [];
  return {
    home,
    gateways,
    async run(argv, variables = {}, input, options = {}) {
      const output = bufferedOutput();
      const deps: CliDeps = {
        env: readEnvironment({ HEARTH_HOME: home, HEARTH_LOG_LEVEL: 'silent', ...variables }),
        output,
        isTTY: options.isTTY ?? false,
        execPath: process.execPath,
        binPath: options.binPath ?? CLI_SOURCE_PATH,
        fetch: options.fetch ?? globalThis.fetch,
        // As the real CLI does, unless the test fakes the network.
        gatewayFetch: options.fetch ? undefined : httpFetch,
        input: Array.isArray(input) || input === undefined ? Readable.from(input ?? []) : input,
        promptOutput: options.promptOutput ?? new PassThrough(),
        tuneRuntime: () => TEST_RUNTIME,
        runGateway,
        installSignalHandlers: (running) => void gateways.push(running),
        platform: options.platform ?? 'linux',
        runProgram:
          options.runProgram ??
          ((command) => Promise.reject(new Error(`no program may run in this test: ${command}`))),
      };
      const code = await runCli(argv, deps);
      return { code, stdout: output.stdout(), stderr: output.stderr() };
    },
    async cleanup() {
      await Promise.all(gateways.map((gateway) => gateway.stop()));
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** A TCP port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Dependencies for building the command tree only (`buildProgram`): nothing runs. */
export function treeOnlyDeps(): CliDeps {
  const unused = () => {
    throw new Error('not used when only building the command tree');
  };
  return {
    env: readEnvironment({ HEARTH_HOME: '/nonexistent/hearth-home' }),
    output: bufferedOutput(),
    isTTY: false,
    execPath: process.execPath,
    binPath: CLI_SOURCE_PATH,
    fetch: unused,
    input: new PassThrough(),
    promptOutput: new PassThrough(),
    tuneRuntime: unused,
    runGateway: unused,
    installSignalHandlers: unused,
    platform: 'linux',
    runProgram: unused,
  };
}
