/**
 * `npm install`'s prepare step (also run by `npm ci`): builds dist/ so that the `hearth`
 * command works straight after the install. Plain JavaScript, so that it also runs on an old
 * node (npm runs it on the node it runs on itself): when that node is older than 22.12, the
 * build runs on the Node 24 that scripts/ensure-node.sh provides (a newer node on the PATH, or
 * Node 24 from the npm registry in the user's cache, shared by every checkout), and this says
 * so once. In a production-only install there is nothing to build with.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const MIN_MAJOR = 22;
const MIN_MINOR = 12;

const [, major, minor] = /^v(\d+)\.(\d+)/.exec(process.version) ?? [];

if (!existsSync('gateway/src')) {
  // The manifests alone (the Dockerfile's dependency layers): nothing to build yet.
} else if (!hasCompiler()) {
  process.stdout.write(
    'hearth: dev dependencies are not installed (--omit=dev), so dist/ is not built; ' +
      "build it with a full 'npm ci' (or 'npm run build' before 'npm prune --omit=dev').\n",
  );
} else if (!tooOld(major, minor)) {
  await import('./build.ts');
} else {
  const found = spawnSync('bash', ['scripts/ensure-node.sh'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const node = found.status === 0 ? join(found.stdout.trim(), 'node') : undefined;
  if (node === undefined || !existsSync(node)) {
    process.stdout.write(
      `hearth: this machine's Node is ${process.version}; Hearth needs ${MIN_MAJOR}.${MIN_MINOR} ` +
        "or newer, and scripts/ensure-node.sh could not provide it: install Node 24, then 'npm run build'.\n",
    );
    process.exitCode = 1;
  } else {
    // npm puts node_modules/.bin first on the PATH of every script it runs (npm start, npm test,
    // npx): a `node` there makes them run on Node 24 as well, without a step of the user's.
    linkProjectNode(node);
    process.stdout.write(
      `hearth: this machine's Node is ${process.version}; npm scripts, npx and the hearth ` +
        `command use ${node} (linked as node_modules/.bin/node).\n`,
    );
    const build = spawnSync(node, ['scripts/build.ts'], { stdio: 'inherit' });
    process.exitCode = build.status ?? 1;
  }
}

function tooOld(major, minor) {
  return Number(major) < MIN_MAJOR || (Number(major) === MIN_MAJOR && Number(minor) < MIN_MINOR);
}

/** Whether the build's compiler (esbuild, a dev dependency) is installed. */
function hasCompiler() {
  try {
    createRequire(import.meta.url).resolve('esbuild/package.json');
    return true;
  } catch {
    return false;
  }
}

/** node_modules/.bin/node → the given Node 24 binary (replacing an earlier link). */
function linkProjectNode(node) {
  mkdirSync(join('node_modules', '.bin'), { recursive: true });
  const link = join('node_modules', '.bin', 'node');
  rmSync(link, { force: true });
  symlinkSync(node, link);
}
