import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { webWorkspace } from './build-client.ts';

/** The budget for what the first load fetches (index.html, its scripts, styles and preloads). */
export const INITIAL_BUDGET_GZIP_BYTES = 60_000;

export interface BundleReport {
  /** Gzip bytes of each file the page loads at once, by its path in the build. */
  initial: Record<string, number>;
  initialTotal: number;
  /** Gzip bytes of each script or style loaded later (views' chunks), by path. */
  lazy: Record<string, number>;
  lazyTotal: number;
}

const gzipped = async (path: string) => gzipSync(await readFile(path), { level: 9 }).length;
const total = (sizes: Record<string, number>) => Object.values(sizes).reduce((a, b) => a + b, 0);

/**
 * Measures a build of the web client: the initial load is index.html and every asset it
 * names (module script, stylesheets, module preloads); every other .js/.css under assets/ is
 * a lazy chunk.
 */
export async function measureBundle(distDir: string): Promise<BundleReport> {
  const html = await readFile(join(distDir, 'index.html'), 'utf8');
  const named = new Set(
    [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!),
  );
  const initial: Record<string, number> = {
    'index.html': await gzipped(join(distDir, 'index.html')),
  };
  const lazy: Record<string, number> = {};
  for (const name of await readdir(join(distDir, 'assets'))) {
    if (!/\.(js|css)$/.test(name)) continue;
    const path = `assets/${name}`;
    (named.has(path) ? initial : lazy)[path] = await gzipped(join(distDir, path));
  }
  return { initial, initialTotal: total(initial), lazy, lazyTotal: total(lazy) };
}

/**
 * Builds the client as `npm run build` does, into a fresh temporary folder: Vite's own
 * command in a child process whose only variable is NODE_ENV=production (the test runner's
 * `test` would make the Preact plugin keep its development code, and the sizes would not be
 * those users get).
 */
export async function buildForProduction(): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'hearth-web-size-'));
  const vite = createRequire(join(webWorkspace, 'package.json')).resolve('vite/package.json');
  const args = ['build', '--config', join(webWorkspace, 'vite.config.ts'), '--outDir', outDir];
  await promisify(execFile)(
    process.execPath,
    [join(dirname(vite), 'bin', 'vite.js'), ...args, '--emptyOutDir', '--logLevel', 'error'],
    { cwd: webWorkspace, env: { NODE_ENV: 'production' } },
  );
  return outDir;
}
