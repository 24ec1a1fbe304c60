/**
 * The optional features: parts of Hearth whose packages the default `npm install` leaves out
 * because they are large (ONNX Runtime alone is ~290 MB as npm ships it, every platform's
 * binaries in one package). `hearth features add <name>` runs this file; so do CI
 * (.ci/run) and the Dockerfile (`--build-arg FEATURES=...`), which cannot use the compiled CLI.
 *
 *   node scripts/features.js                      # each feature: on, or off and how to turn it on
 *   node scripts/features.js add voice embeddings # installs their packages (extra npm flags after --)
 *
 * The table and the versions are gateway/package.json's `hearthFeatures` and
 * `peerDependencies` (optional peers: npm checks their versions but never installs them by
 * itself). `npm install --no-save` adds the packages without changing package.json or the
 * lockfile, so a later `npm install` or `npm ci` removes them again: run `add` again after
 * those. After an install, the ONNX Runtime binaries of other platforms are deleted.
 *
 * Plain JavaScript without newer syntax, so that it runs on whatever node npm runs on.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(root, 'gateway', 'package.json'), 'utf8'));
const features = manifest.hearthFeatures;
const versions = manifest.peerDependencies;
const fromGateway = createRequire(join(root, 'gateway', 'package.json'));

function installed(name) {
  try {
    fromGateway.resolve(name);
    return true;
  } catch {
    return false;
  }
}

function missing(feature) {
  return features[feature].packages.filter((name) => !installed(name));
}

function list() {
  if (json) {
    const states = Object.fromEntries(
      Object.entries(features).map(([name, feature]) => [
        name,
        { on: missing(name).length === 0, missing: missing(name), summary: feature.summary },
      ]),
    );
    process.stdout.write(`${JSON.stringify({ features: states })}\n`);
    return;
  }
  for (const [name, feature] of Object.entries(features)) {
    const absent = missing(name);
    const state =
      absent.length === 0 ? 'on' : `off (hearth features add ${name}; needs ${absent.join(', ')})`;
    process.stdout.write(`${name.padEnd(11)} ${state}\n  ${feature.summary}\n`);
  }
}

/** Deletes onnxruntime-node's binaries for other systems (~250 MB of its ~290 MB). */
function pruneOtherPlatforms() {
  let base;
  try {
    base = dirname(fromGateway.resolve('onnxruntime-node/package.json'));
  } catch {
    return;
  }
  const bin = join(base, 'bin');
  if (!existsSync(bin)) return;
  for (const napi of readdirSync(bin)) {
    for (const platform of readdirSync(join(bin, napi))) {
      for (const arch of readdirSync(join(bin, napi, platform))) {
        if (platform === process.platform && arch === process.arch) continue;
        rmSync(join(bin, napi, platform, arch), { recursive: true, force: true });
      }
    }
  }
}

function add(names, npmFlags) {
  const unknown = names.filter((name) => !Object.hasOwn(features, name));
  if (names.length === 0 || unknown.length > 0) {
    process.stderr.write(
      `${unknown.length > 0 ? `unknown feature: ${unknown.join(', ')}; ` : ''}` +
        `features: ${Object.keys(features).join(', ')}\n`,
    );
    return 2;
  }
  const packages = [...new Set(names.flatMap((name) => features[name].packages))];
  const specs = packages.map((name) => `${name}@${versions[name]}`);
  // With --json, stdout is the one JSON document at the end; progress goes to stderr.
  (json ? process.stderr : process.stdout).write(`installing ${specs.join(' ')}\n`);
  // The same packages as before plus these: npm keeps what is installed and adds the rest.
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(
    npm,
    ['install', '--no-save', '--no-audit', '--no-fund', ...npmFlags, ...specs],
    { cwd: root, stdio: json ? ['ignore', 2, 2] : 'inherit' },
  );
  if (result.status !== 0) {
    process.stderr.write(
      `npm install failed (${result.error ? result.error.message : `exit ${result.status}`})\n`,
    );
    return 1;
  }
  pruneOtherPlatforms();
  const still = names.filter((name) => missing(name).length > 0);
  if (still.length > 0) {
    process.stderr.write(`still off after the install: ${still.join(', ')}\n`);
    return 1;
  }
  process.stdout.write(
    json
      ? `${JSON.stringify({ on: names })}\n`
      : `on: ${names.join(', ')} (npm install or npm ci removes them: run this again after those)\n`,
  );
  return 0;
}

const [command = 'list', ...rest] = process.argv.slice(2);
const dashes = rest.indexOf('--');
const own = dashes === -1 ? rest : rest.slice(0, dashes);
const json = own.includes('--json');
const names = own.filter((arg) => arg !== '--json').flatMap((name) => name.split(','));
const npmFlags = dashes === -1 ? [] : rest.slice(dashes + 1);
if (command === 'list') list();
else if (command === 'add') process.exitCode = add(names.filter(Boolean), npmFlags);
else {
  process.stderr.write(
    'usage: node scripts/features.js [list | add <feature>...] [--json] [-- <npm flags>]\n',
  );
  process.exitCode = 2;
}
