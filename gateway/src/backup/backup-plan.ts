import { posix } from 'node:path';
import type { ArchiveLimits } from './archive-rules.ts';
import { nameProblem } from './archive-rules.ts';
import {
  DEFAULT_DIRECTORY_MODE,
  DEFAULT_FILE_MODE,
  MANIFEST_NAME,
  STATE_PREFIX,
  type BackupManifest,
} from './manifest.ts';
import { BLOCK, blocks } from './tar-format.ts';

/** The bits a restore sets: permissions only, never setuid, setgid or sticky. */
export const PERMISSION_BITS = 0o777;

export interface PlannedFile {
  kind: 'file';
  path: string;
  size: number;
  sha256: string;
  sqlite: boolean;
  /** The mode to restore (permission bits only). */
  mode: number;
}

export interface PlannedDirectory {
  kind: 'directory';
  path: string;
  mode: number;
  /** A member of the archive (version 2), or only implied by the files under it (version 1). */
  inArchive: boolean;
}

/** What a checked manifest says the archive holds, and how much reading that takes. */
export interface BackupPlan {
  manifest: BackupManifest;
  /** Every file and folder the archive holds as a member, by archive path. */
  members: Map<string, PlannedFile | PlannedDirectory>;
  files: PlannedFile[];
  /** Every folder to create, implied ones included, parents first. */
  directories: PlannedDirectory[];
  /** Sum of the files' sizes. */
  totalBytes: number;
  /**
   * Bytes of tar, after the manifest, that the declared members can take: each header with
   * room for one pax record of its name, each body rounded up to blocks, the end-of-archive
   * marker and a record's padding. Reading stops at the first byte past it.
   */
  tarBytes: number;
}

/** Padding a tar writer may add after the end-of-archive marker (GNU tar: 10 KiB records). */
export const TRAILER_BYTES = 64 * 1024;
/** Largest pax extended header accepted (a path of 4096 bytes and a few times fit easily). */
export const MAX_PAX_BYTES = 8 * 1024;

/** Header bytes one member may take: its block, plus one pax header holding its name. */
export function headerAllowance(path: string): number {
  return BLOCK + BLOCK + blocks(Buffer.byteLength(path) + BLOCK);
}

/** Why an archive path listed in a manifest is not a clean `state/…` name, or null. */
function pathProblem(path: string): string | null {
  const problem = nameProblem(path);
  if (problem) return problem;
  if (!path.startsWith(STATE_PREFIX)) return `not under ${STATE_PREFIX}`;
  if (path !== posix.normalize(path) || path.endsWith('/') || path.split('/').includes('.'))
    return 'not a normalised path';
  return null;
}

const masked = (mode: number | undefined, fallback: number) => (mode ?? fallback) & PERMISSION_BITS;

/**
 * Checks a parsed manifest against the limits and itself (clean, unique `state/…` names, no
 * file under a file, every folder of a version-2 file listed) and plans the read: the
 * members to expect, the modes to restore, the bytes it may take. Problems name the limit.
 */
export function planBackup(
  manifest: BackupManifest,
  limits: ArchiveLimits,
): { plan?: BackupPlan; problems: string[] } {
  const problems: string[] = [];
  const members = new Map<string, PlannedFile | PlannedDirectory>();
  const shown = (path: string) => `${MANIFEST_NAME} lists ${JSON.stringify(path)}`;
  const count = manifest.members.length + (manifest.directories?.length ?? 0) + 1;
  if (count > limits.maxMembers)
    return {
      problems: [
        `${MANIFEST_NAME} declares ${count} members, beyond the limit of ${limits.maxMembers}`,
      ],
    };

  const add = (entry: PlannedFile | PlannedDirectory) => {
    const problem = pathProblem(entry.path);
    if (problem) problems.push(`${shown(entry.path)}: ${problem}`);
    else if (members.has(entry.path)) problems.push(`${shown(entry.path)} twice`);
    else members.set(entry.path, entry);
  };
  for (const directory of manifest.directories ?? [])
    add({
      kind: 'directory',
      path: directory.path,
      mode: masked(directory.mode, 0),
      inArchive: true,
    });
  let totalBytes = 0;
  const files: PlannedFile[] = [];
  for (const member of manifest.members) {
    if (member.size > limits.maxMemberBytes)
      problems.push(
        `${shown(member.path)} of ${member.size} bytes, beyond the limit of ${limits.maxMemberBytes} per member`,
      );
    totalBytes += member.size;
    const file: PlannedFile = {
      kind: 'file',
      path: member.path,
      size: member.size,
      sha256: member.sha256,
      sqlite: member.kind === 'sqlite',
      mode: masked(member.mode, DEFAULT_FILE_MODE),
    };
    files.push(file);
    add(file);
  }
  if (totalBytes > limits.maxTotalBytes)
    problems.push(
      `${MANIFEST_NAME} declares ${totalBytes} bytes in all, beyond the limit of ${limits.maxTotalBytes}`,
    );

  // Every folder on the way to a member: listed (version 2) or implied (version 1).
  const directories = new Map<string, PlannedDirectory>();
  for (const entry of members.values()) {
    if (entry.kind === 'directory') directories.set(entry.path, entry);
    for (let parent = posix.dirname(entry.path); parent !== 'state';) {
      const known = members.get(parent);
      if (known?.kind === 'file') {
        problems.push(`${shown(entry.path)} inside the file ${JSON.stringify(parent)}`);
        break;
      }
      if (!known && manifest.directories) {
        problems.push(`${shown(entry.path)} but not its directory ${JSON.stringify(parent)}`);
        break;
      }
      if (!known && !directories.has(parent))
        directories.set(parent, {
          kind: 'directory',
          path: parent,
          mode: DEFAULT_DIRECTORY_MODE,
          inArchive: false,
        });
      parent = posix.dirname(parent);
    }
  }
  if (problems.length > 0) return { problems };

  let tarBytes = 2 * BLOCK + TRAILER_BYTES;
  for (const entry of members.values())
    tarBytes += headerAllowance(entry.path) + (entry.kind === 'file' ? blocks(entry.size) : 0);
  const depth = (path: string) => path.split('/').length;
  return {
    plan: {
      manifest,
      members,
      files,
      directories: [...directories.values()].sort((a, b) => depth(a.path) - depth(b.path)),
      totalBytes,
      tarBytes,
    },
    problems,
  };
}
