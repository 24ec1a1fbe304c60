/**
 * What `./hearth` (the shell script at the repository root) runs on the project's Node 24:
 * the compiled CLI, straight away, without npm or npx in between. When dist/ is missing or is
 * not the build of the checkout as it is now (scripts/build/build-stamp.ts), it is built first,
 * and the reason is said on stderr, so a command's stdout (`--json`) stays its own.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freshness } from './build/build-stamp.ts';

// ./hearth turned Node's compile cache on for this process (it is on from start-up); not for
// the processes this one starts.
if (process.env.HEARTH_OWN_COMPILE_CACHE === '1') {
  delete process.env.NODE_COMPILE_CACHE;
  delete process.env.HEARTH_OWN_COMPILE_CACHE;
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const state = freshness(root);
if (!state.fresh) {
  process.stderr.write(`hearth: building dist/ first (${state.reason})\n`);
  const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.ts')], {
    cwd: root,
    stdio: ['ignore', process.stderr, process.stderr],
  });
  if (build.status !== 0) {
    process.stderr.write(
      `hearth: the build failed (${build.error?.message ?? `exit ${build.status ?? build.signal}`}); ` +
        `see above, or run 'npm run build' in ${root}\n`,
    );
    process.exit(1);
  }
}
await import(pathToFileURL(join(root, 'dist', 'cli-ink', 'src', 'main.js')).href);
