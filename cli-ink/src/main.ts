/**
 * The `hearth` process (bin/hearth.js imports the compiled copy of this file): the one place
 * with real I/O wired in. Only light modules load here; each command loads its own module when
 * it runs (program.ts), and `hearth start` hands the process over to the gateway's own entry
 * point (handOverToGateway), or, where it cannot, loads the gateway only after the process has
 * been re-executed with the gateway's memory set-up (tuneRuntime).
 */
import { fileURLToPath } from 'node:url';
import { readEnvironment } from '@hearth/gateway/environment';
import { tuneThisProcess } from '@hearth/gateway/runtime-tuning';
import { installSignalHandlers } from '@hearth/gateway/signals';
import { httpFetch } from './http-fetch.ts';
import { processOutput } from './output.ts';
import { runCli } from './run-cli.ts';
import { runProgram } from './run-program.ts';

process.exitCode = await runCli(process.argv.slice(2), {
  env: readEnvironment(),
  output: processOutput(),
  isTTY: process.stdout.isTTY === true,
  execPath: process.execPath,
  // The script this process runs (bin/hearth.js, or this file run directly).
  binPath: process.argv[1] ?? fileURLToPath(import.meta.url),
  fetch: globalThis.fetch,
  gatewayFetch: httpFetch,
  input: process.stdin,
  promptOutput: process.stdout,
  tuneRuntime: tuneThisProcess,
  handOverToGateway: async (args) =>
    (await import('@hearth/gateway/hand-over')).handOverToGateway(args),
  runGateway: async (options) => (await import('@hearth/gateway/run')).runGateway(options),
  installSignalHandlers: (running) => installSignalHandlers(running),
  platform: process.platform,
  runProgram,
});
