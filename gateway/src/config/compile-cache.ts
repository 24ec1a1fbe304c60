/**
 * Node's compile cache for the gateway process: the code of the ~1,000 modules a start loads,
 * compiled once and kept in `{data_dir}/cache/compile/` (0700; Node adds one folder per Node
 * version and writes its files 0600), so later starts skip most of the compiling. Node checks
 * each entry against the module's source, so a changed file is compiled afresh; the folder may
 * be deleted at any time. Backups leave it out (backup/state-members.ts).
 *
 * It is for this process only: children (tools, shells, `hearth mcp`) do not inherit it.
 * `NODE_COMPILE_CACHE` set by the user wins (Node has already enabled it); HEARTH_COMPILE_CACHE=off
 * turns it off.
 */
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { enableCompileCache, flushCompileCache, constants } from 'node:module';
import { join } from 'node:path';

/** The folder under the state directory. */
export function compileCacheDir(home: string): string {
  return join(home, 'cache', 'compile');
}

/**
 * Enables the cache for the modules loaded from now on; returns what it did (for /status) and
 * never throws: a start without the cache is only slower.
 */
export function enableGatewayCompileCache(
  home: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  if (/^(off|0|false|no)$/i.test(env.HEARTH_COMPILE_CACHE ?? ''))
    return 'off (HEARTH_COMPILE_CACHE)';
  if (env.NODE_COMPILE_CACHE) return `NODE_COMPILE_CACHE (${env.NODE_COMPILE_CACHE})`;
  const dir = compileCacheDir(home);
  try {
    // `mode` applies to every folder created, the state directory included when it is new.
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const folder of [join(home, 'cache'), dir])
      if ((statSync(folder).mode & 0o077) !== 0) chmodSync(folder, 0o700);
    const result = enableCompileCache(dir);
    if (
      result.status === constants.compileCacheStatus.ENABLED ||
      result.status === constants.compileCacheStatus.ALREADY_ENABLED
    )
      return dir;
    return `off (${result.message ?? 'Node did not enable it'})`;
  } catch (error) {
    return `off (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** Writes what was compiled so far (Node also writes it at exit): called once start-up is done. */
export function flushGatewayCompileCache(): void {
  flushCompileCache();
}
