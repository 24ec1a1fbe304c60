import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';

/** The `web` workspace's folder. */
export const webWorkspace = dirname(
  createRequire(import.meta.url).resolve('@hearth/web/package.json'),
);

/** Builds the web client from its sources into a fresh temporary folder (Vite's JS API). */
export async function buildClient(): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'hearth-web-'));
  const { build } = await import('vite');
  await build({
    configFile: join(webWorkspace, 'vite.config.ts'),
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true },
  });
  return outDir;
}
