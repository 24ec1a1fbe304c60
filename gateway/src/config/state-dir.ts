import { chmod, mkdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';

/** Paths inside the state directory that the foundation owns. */
export interface StatePaths {
  home: string;
  configPath: string;
  pidFile: string;
  logFile: string;
  defaultDbPath: string;
  /** The privacy audit database (HEARTH_AUDIT_DB_PATH overrides). */
  auditDbPath: string;
  /** The embedded terminal's local token (0600), when no API key is set. */
  terminalTokenFile: string;
}

export function statePaths(
  home: string,
  configPath = join(home, 'config.toml'),
  auditDbPath = join(home, 'privacy_audit.db'),
): StatePaths {
  return {
    home,
    configPath,
    pidFile: join(home, 'gateway.pid'),
    logFile: join(home, 'gateway.log'),
    defaultDbPath: join(home, 'memory.db'),
    auditDbPath,
    terminalTokenFile: join(home, 'terminal.token'),
  };
}

/** Creates the state directory with mode 0700 (and tightens it if it already exists). */
export async function ensureStateDir(home: string): Promise<void> {
  await mkdir(home, { recursive: true, mode: 0o700 });
  const info = await stat(home);
  if ((info.mode & 0o077) !== 0) await chmod(home, 0o700);
}

/** `[memory] db_path`: empty means the state directory's memory.db; relative is under it. */
export function resolveDbPath(dbPath: string, paths: StatePaths): string {
  if (dbPath === '') return paths.defaultDbPath;
  if (/^postgres(ql)?:\/\//.test(dbPath) || isAbsolute(dbPath)) return dbPath;
  return join(paths.home, dbPath);
}

/**
 * The agent's workspace (`{data_dir}/workspace`, 0700), created when missing, as its real path:
 * allowlist entries without a directory allow only this tree, so it is compared with real paths
 * (a symlink inside it cannot lead out unseen).
 */
export async function openWorkspace(home: string): Promise<string> {
  await mkdir(join(home, 'workspace'), { recursive: true, mode: 0o700 });
  return realpath(join(home, 'workspace'));
}
