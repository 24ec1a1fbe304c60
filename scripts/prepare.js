/**
 * `npm install`'s prepare step (also run by `npm ci`): builds dist/ so that the `hearth`
 * command works straight after the install, and says once which Node runs Hearth when the
 * machine's own is too old. With the dev dependencies installed, npm runs this on the
 * project's Node 24 (the `node` devDependency, first on PATH in npm scripts). Plain
 * JavaScript, so that it also runs on an old node in a production-only install, where there
 * is nothing to build with.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const MIN_MAJOR = 22;
const MIN_MINOR = 12;

// npm names the node it runs on in its user agent: "npm/11.19.1 node/v20.20.2 linux x64 …".
const machine = /\bnode\/(v(\d+)\.(\d+)\.\d+)/.exec(process.env.npm_config_user_agent ?? '');
if (machine !== null && tooOld(machine[2], machine[3])) {
  const [, major, minor] = /^v(\d+)\.(\d+)/.exec(process.version) ?? [];
  process.stdout.write(
    tooOld(major, minor)
      ? `hearth: this machine's Node is ${machine[1]}; Hearth needs ${MIN_MAJOR}.${MIN_MINOR} or ` +
          `newer: a full 'npm install' brings the project's own Node 24, or install Node 24.\n`
      : `hearth: this machine's Node is ${machine[1]}; Hearth uses the project's own Node ` +
          `${process.version} (node_modules/node) for npm scripts, npx and the hearth ` +
          `command. Nothing to do.\n`,
  );
}

if (!existsSync('gateway/src')) {
  // The manifests alone (the Dockerfile's dependency layers): nothing to build yet.
} else if (!hasTypeScript()) {
  process.stdout.write(
    'hearth: dev dependencies are not installed (--omit=dev), so dist/ is not built; ' +
      "build it with a full 'npm ci' (or 'npm run build' before 'npm prune --omit=dev').\n",
  );
} else {
  await import('./build.ts');
}

function tooOld(major, minor) {
  return Number(major) < MIN_MAJOR || (Number(major) === MIN_MAJOR && Number(minor) < MIN_MINOR);
}

function hasTypeScript() {
  try {
    createRequire(import.meta.url).resolve('typescript/package.json');
    return true;
  } catch {
    return false;
  }
}
