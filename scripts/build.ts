/**
 * Production build: TypeScript → JavaScript in dist/ (the same tree as the sources), plus the
 * files the code reads at run time (package manifests, SQL migrations). Development and tests
 * run the .ts sources directly on Node 24; the built tree starts faster and uses ~25 MB less
 * memory because Node's TypeScript stripper is never loaded.
 */
import { execFileSync } from 'node:child_process';
import { cp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
await rm('dist', { recursive: true, force: true });
execFileSync(
  process.execPath,
  [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
  {
    stdio: 'inherit',
  },
);
for (const path of ['gateway/package.json', 'gateway/drizzle', 'cli-ink/package.json']) {
  await cp(path, `dist/${path}`, { recursive: true });
}
