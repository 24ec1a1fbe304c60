/**
 * Production build: TypeScript → JavaScript in dist/ (the same tree as the sources), plus the
 * files the code reads at run time (package manifests, SQL migrations, ReDoc's bundle:
 * scripts/build/redoc-assets.ts). `npm install` runs it
 * (the `prepare` script), and so do `npm start` and `npm run bench`. The `hearth` command and
 * `npm start` run this tree: it starts faster and uses ~25 MB less memory than the .ts sources
 * because Node's TypeScript stripper is never loaded. Tests and `npm run start:dev` run the
 * sources.
 *
 * The clients' REST types are regenerated from the compiled gateway (scripts/generate-client.ts),
 * so the next typecheck sees the routes as they are.
 *
 * Each module is compiled on its own by esbuild (scripts/build/transpile.ts): types are not
 * checked here (`npm run typecheck` does that). Test-only modules (fake servers, conformance
 * suites, testing/ helpers, __fixtures__/) are left out, and the build fails if one reaches
 * dist/.
 *
 * dist/gateway and dist/cli-ink each get a node_modules link to their workspace's own
 * node_modules, so a compiled file finds the same packages as its source (npm nests a
 * workspace's dependency there when the root holds another version of it). The build fails
 * when a compiled file's import finds a version outside its workspace's declared range, or
 * when the compiled hub address policy disagrees with its test cases.
 *
 * The gateway's entry point, dist/gateway/src/main.js, is then bundled with what it loads
 * (scripts/build/bundle-gateway.ts): the other compiled modules stay as they are.
 *
 * Every build ends by writing dist/.build-stamp.json (scripts/build/build-stamp.ts). With
 * `--if-changed` (`npm start`, `./hearth`), the build is skipped when the stamp says dist/ is
 * the build of the sources, configs and dependencies as they are now; it says which. One build
 * runs at a time in a checkout (scripts/build/build-lock.ts); another waits for it.
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { acquireBuildLock } from './build/build-lock.ts';
import { freshness, inputFingerprint, writeStamp } from './build/build-stamp.ts';
import { isTestOnlyModule } from './test-only-modules.ts';

/** The workspaces compiled into dist/ (tsconfig.build.json's `include`). */
const COMPILED_WORKSPACES = ['gateway', 'cli-ink'];

const require = createRequire(import.meta.url);
const root = process.cwd();
const ifChanged = process.argv.includes('--if-changed');
let state = ifChanged ? freshness(root) : undefined;
if (state?.fresh === true) upToDate();
const { waited } = await acquireBuildLock(root, (pid) =>
  process.stdout.write(`build: waiting for the build in process ${pid}\n`),
);
// The build waited for may have made dist/ what this one would.
if (ifChanged && waited) state = freshness(root);
if (state?.fresh === true) upToDate();
if (state !== undefined && !state.fresh)
  process.stdout.write(`build: building (${state.reason})\n`);
// Taken before anything is built, so that a source changed during the build means another.
const inputs = inputFingerprint(root);
await rm('dist', { recursive: true, force: true });
// Loaded here, not at the top, as the checks below: an up-to-date dist/ should not cost them.
const { transpile } = await import('./build/transpile.ts');
await transpile(root, 'dist');
const { ensureRedocAssets, REDOC_RELEASE } = await import('./build/redoc-assets.ts');
try {
  if ((await ensureRedocAssets({ dir: 'gateway/assets/redoc' })) === 'fetched')
    process.stdout.write(
      `build: ReDoc's bundle taken from redoc@${REDOC_RELEASE.version}'s tarball (gateway/assets/redoc)\n`,
    );
} catch (error) {
  process.stderr.write(`build: ReDoc's bundle (served at /redoc): ${(error as Error).message}\n`);
  process.exit(1);
}
for (const path of [
  'gateway/drizzle',
  'gateway/assets', // ReDoc's bundle (above)
  'cli-ink/package.json',
  'gateway/src/skills/validate/validate_skill.py', // the skill.py check runs it beside the .js
  'gateway/src/skills/host/runtime', // the skill host's child runs these files (plain JS, Python)
]) {
  await cp(path, `dist/${path}`, { recursive: true });
}
await writeGatewayManifest();
await linkGatewayPackage();
for (const workspace of COMPILED_WORKSPACES) await linkWorkspaceModules(workspace);

const testOnly = (await readdir('dist', { recursive: true })).filter(isTestOnlyModule);
if (testOnly.length > 0) {
  process.stderr.write(`build: test-only modules reached dist/:\n  ${testOnly.join('\n  ')}\n`);
  process.exit(1);
}

// Two independent processes, side by side: the clients' REST types (@hearth/client), from the
// compiled gateway's route schemas as they are now, and the web client, which Vite builds from
// web/ into web/dist/ (the gateway serves it at `/`; types play no part in it).
const children = await Promise.allSettled([
  runNode(['scripts/generate-client.ts', '--compiled', 'dist']),
  runNode([
    join(dirname(require.resolve('vite/package.json')), 'bin', 'vite.js'),
    'build',
    '--config',
    'web/vite.config.ts',
    '--logLevel',
    'warn',
  ]),
]);
for (const child of children) {
  if (child.status === 'rejected') {
    process.stderr.write(`build: ${(child.reason as Error).message}\n`);
    process.exit(1);
  }
}

const { checkResolution, describeProblem } = await import('./build/check-resolution.ts');
const { checkAddressPolicy } = await import('./build/check-address-policy.ts');
const resolutionProblems = await checkResolution({
  root: process.cwd(),
  outputRoot: 'dist',
  ownScope: '@hearth/',
  workspaces: COMPILED_WORKSPACES.map((workspace) => ({
    output: `dist/${workspace}`,
    manifest: `${workspace}/package.json`,
  })),
});
if (resolutionProblems.length > 0) {
  process.stderr.write(
    `build: compiled imports find packages outside the declared ranges:\n  ` +
      `${resolutionProblems.map(describeProblem).join('\n  ')}\n`,
  );
  process.exit(1);
}

const policyMismatches = await checkAddressPolicy('dist/gateway/src/hub/address-policy.js');
if (policyMismatches.length > 0) {
  process.stderr.write(
    `build: the compiled hub address policy disagrees with its tests:\n  ` +
      `${policyMismatches.join('\n  ')}\n`,
  );
  process.exit(1);
}

// Last, once every check has read the compiled tree as it is: the entry point becomes a bundle.
const [{ bundleGateway }, { GATEWAY_LOAD_ON_FIRST_USE }] = await Promise.all([
  import('./build/bundle-gateway.ts'),
  import('./build/load-on-first-use.ts'),
]);
const bundle = await bundleGateway({
  root,
  entry: join(root, 'dist/gateway/src/main.js'),
  ownRoot: join(root, 'dist'),
  loadOnFirstUse: GATEWAY_LOAD_ON_FIRST_USE,
});
process.stdout.write(
  `build: dist/gateway/src/main.js bundled (${bundle.modules} modules; ` +
    `${bundle.external.size} packages left to Node)\n`,
);

writeStamp(root, inputs);

/** Runs a Node script as a child process; rejects when it fails. */
function runNode(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${args[0]} failed (${signal ?? `exit ${code}`})`));
    });
  });
}

function upToDate(): never {
  process.stdout.write('build: dist/ is up to date\n');
  process.exit(0);
}

/**
 * The gateway's manifest, its entry points pointing at the compiled files: `@hearth/gateway`
 * maps to src/index.ts in the sources and to src/index.js here.
 */
async function writeGatewayManifest(): Promise<void> {
  const manifest = JSON.parse(await readFile('gateway/package.json', 'utf8')) as {
    exports: Record<string, string>;
  };
  manifest.exports = Object.fromEntries(
    Object.entries(manifest.exports).map(([entry, file]) => [entry, file.replace(/\.ts$/, '.js')]),
  );
  await writeFile('dist/gateway/package.json', `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * dist/node_modules/@hearth/gateway → dist/gateway, so the compiled CLI's imports of
 * `@hearth/gateway` find the compiled gateway before the workspace link to the sources in
 * node_modules/@hearth.
 */
async function linkGatewayPackage(): Promise<void> {
  await mkdir('dist/node_modules/@hearth', { recursive: true });
  await symlink('../../gateway', 'dist/node_modules/@hearth/gateway', 'dir');
}

/**
 * dist/<workspace>/node_modules → <workspace>/node_modules (a relative link, so it holds in
 * the Docker image too, whose deps stage installs the same layout), made whether or not the
 * workspace has nested packages now, so a later install that nests one is seen at once.
 */
async function linkWorkspaceModules(workspace: string): Promise<void> {
  await symlink(`../../${workspace}/node_modules`, `dist/${workspace}/node_modules`, 'dir');
}
