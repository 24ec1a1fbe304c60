#!/usr/bin/env node
/**
 * The `hearth` command. It runs the compiled CLI, dist/cli-ink/src/main.js, which `npm install`
 * (the `prepare` script), `npm run build` and `npm start` build; the TypeScript sources are for
 * tests and development only.
 *
 * Hearth needs Node ≥ 22.12. On an older node, this file hands over to the Node 24 that
 * scripts/ensure-node.sh provides (installed from the npm registry into the user's cache the
 * first time). Plain JavaScript without newer syntax, so that any node can read it far enough
 * to say what is wrong.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const MIN_MAJOR = 22;
const MIN_MINOR = 12;
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const entry = join(root, 'dist', 'cli-ink', 'src', 'main.js');

const [major, minor] = process.versions.node.split('.').map(Number);
if (major > MIN_MAJOR || (major === MIN_MAJOR && minor >= MIN_MINOR)) {
  if (!existsSync(entry)) {
    process.stderr.write(
      `hearth: the compiled CLI is missing (${entry}).\n` +
        `Build it with 'npm run build' in ${root} (npm install does it too).\n`,
    );
    process.exit(1);
  }
  await import(pathToFileURL(entry).href);
} else {
  const node = projectNode();
  if (node === undefined) {
    process.stderr.write(
      `hearth: Hearth needs Node ${MIN_MAJOR}.${MIN_MINOR} or newer; this is ${process.version}.\n` +
        `scripts/ensure-node.sh in ${root} could not provide one: install Node 24.\n`,
    );
    process.exit(1);
  }
  relaunch(node);
}

/** The Node binary scripts/ensure-node.sh provides (it prints the folder), if it can. */
function projectNode() {
  const script = join(root, 'scripts', 'ensure-node.sh');
  if (!existsSync(script)) return undefined;
  const found = spawnSync('bash', [script], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const binary = found.status === 0 ? join(found.stdout.trim(), 'node') : '';
  return binary !== '' && existsSync(binary) ? binary : undefined;
}

/**
 * Runs this command again on `node` and ends with its exit status. SIGTERM and SIGHUP are
 * passed on; SIGINT (Ctrl+C) reaches the child from the terminal by itself, so it is ignored
 * here rather than delivered twice (a second signal stops the gateway without draining).
 */
function relaunch(node) {
  const child = spawn(node, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  for (const signal of ['SIGTERM', 'SIGHUP']) {
    process.on(signal, () => child.kill(signal));
  }
  process.on('SIGINT', () => {});
  child.on('error', (error) => {
    process.stderr.write(`hearth: could not run ${node}: ${error.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (signal !== null) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code ?? 1);
  });
}
