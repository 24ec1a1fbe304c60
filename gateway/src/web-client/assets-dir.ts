import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Where `npm run build` puts the web client (the `web` workspace's `dist/`), found through
 * the workspace package so it works from the sources and from the compiled tree alike.
 * Undefined when the workspace is not installed.
 */
export function defaultWebAssetsDir(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    return join(dirname(require.resolve('@hearth/web/package.json')), 'dist');
  } catch {
    return undefined;
  }
}
