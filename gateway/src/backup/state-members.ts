import { lstat, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { PULL_COMMAND } from '../memory/ports.ts';
import { nameProblem } from './archive-rules.ts';
import { isSqliteFile } from './sqlite-snapshot.ts';

/** One file of the state directory to put in the archive. */
export interface StateMember {
  /** Path relative to the state directory, with `/` separators. */
  name: string;
  absolute: string;
  kind: 'sqlite' | 'file';
  /** Its permission bits (setuid, setgid and sticky are not kept). */
  mode: number;
}

/** One folder under the state directory, parents before their contents. */
export interface StateDirectory {
  name: string;
  mode: number;
}

export interface StateInventory {
  members: StateMember[];
  directories: StateDirectory[];
  skipped: { path: string; reason: string }[];
}

/** Top-level entries a backup leaves out, and why. */
const SKIPPED_TOP_LEVEL: ReadonlyMap<string, string> = new Map([
  ['gateway.pid', 'the running gateway’s process id'],
  ['gateway.runtime.json', 'where the running gateway listens'],
  ['terminal.token', 'a local secret the gateway creates again when it is missing'],
  ['cache', 'Node’s compile cache of the gateway’s code (made again at the next start)'],
  ['models', `the embedding model cache (large; fetch it again with \`${PULL_COMMAND}\`)`],
]);

const SQLITE_SIDE_FILE = /-(wal|shm|journal)$/;
const LOG_FILE = /^gateway\.log(\.\d+)?$/;

/**
 * Every regular file and folder under the state directory, with their modes, databases
 * recognised by their SQLite header whatever their name (memory.db, privacy_audit.db, any
 * other), without following symbolic links; plus what is left out and why (a name a restore
 * would refuse, such as one with a backslash, is left out too). `exclude` lists absolute
 * paths to leave out silently (a backups folder inside the state directory).
 */
export async function inventoryStateDir(
  home: string,
  exclude: readonly string[] = [],
): Promise<StateInventory> {
  const inventory: StateInventory = { members: [], directories: [], skipped: [] };
  const excluded = new Set(exclude);

  async function walk(dir: string): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const absolute = join(dir, entry.name);
      const name = relative(home, absolute).split(sep).join('/');
      if (excluded.has(absolute)) continue;
      const topLevelReason = dir === home ? SKIPPED_TOP_LEVEL.get(entry.name) : undefined;
      const skip = (reason: string) => void inventory.skipped.push({ path: name, reason });
      const badName = nameProblem(name);
      if (topLevelReason) skip(topLevelReason);
      else if (badName) skip(`a name a restore refuses (${badName})`);
      else if (dir === home && LOG_FILE.test(entry.name)) skip('the gateway’s log file');
      else if (SQLITE_SIDE_FILE.test(entry.name))
        skip('SQLite side file: its database is taken through the online backup API');
      else {
        const info = await lstat(absolute);
        const mode = info.mode & 0o777;
        if (info.isSymbolicLink()) skip('symbolic link (not followed)');
        else if (info.isDirectory()) {
          inventory.directories.push({ name, mode });
          await walk(absolute);
        } else if (!info.isFile()) skip('not a regular file');
        else
          inventory.members.push({
            name,
            absolute,
            kind: (await isSqliteFile(absolute)) ? 'sqlite' : 'file',
            mode,
          });
      }
    }
  }

  await walk(home);
  return inventory;
}
