/** The `hearth` process (bin/hearth.js imports this): the one place with real I/O wired in. */
import { fileURLToPath } from 'node:url';
import {
  installSignalHandlers,
  readEnvironment,
  runGateway,
  tuneThisProcess,
} from '@hearth/gateway';
import { processOutput } from './output.ts';
import { runCli } from './run-cli.ts';

process.exitCode = await runCli(process.argv.slice(2), {
  env: readEnvironment(),
  output: processOutput(),
  isTTY: process.stdout.isTTY === true,
  execPath: process.execPath,
  binPath: fileURLToPath(new URL('../bin/hearth.js', import.meta.url)),
  fetch: globalThis.fetch,
  input: process.stdin,
  promptOutput: process.stdout,
  tuneRuntime: tuneThisProcess,
  runGateway,
  installSignalHandlers: (running) => installSignalHandlers(running),
});
