/**
 * `npm install`'s prepare step (also run by `npm ci`): builds dist/ so that the `hearth`
 * command works straight after the install, and says once which Node runs Hearth when the
 * machine's own is too old. npm runs this on the project's Node 24 (the `node`
 * devDependency, first on PATH in npm scripts), whatever node npm itself runs on.
 */
import { existsSync } from 'node:fs';

const MIN_MAJOR = 22;
const MIN_MINOR = 12;

// npm names the node it runs on in its user agent: "npm/11.19.1 node/v20.20.2 linux x64 …".
const machine = /\bnode\/v(\d+)\.(\d+)\.\d+/.exec(process.env.npm_config_user_agent ?? '');
if (machine !== null) {
  const major = Number(machine[1]);
  const minor = Number(machine[2]);
  if (major < MIN_MAJOR || (major === MIN_MAJOR && minor < MIN_MINOR)) {
    process.stdout.write(
      `hearth: this machine's Node is ${machine[0].slice('node/'.length)}; Hearth uses the ` +
        `project's own Node ${process.version} (node_modules/node) for npm scripts, npx and ` +
        `the hearth command. Nothing to do.\n`,
    );
  }
}

// An install from the manifests alone (the Dockerfile's dependency layers) has nothing to build.
if (existsSync('gateway/src')) await import('./build.ts');
