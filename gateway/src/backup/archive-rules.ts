import { posix } from 'node:path';
import { MANIFEST_NAME, STATE_PREFIX } from './manifest.ts';
import { typeDescription } from './tar-format.ts';

/**
 * What create, verify and restore accept. The manifest declares every member and its size;
 * these bound what a manifest may declare, so that no archive, honest or not, can make a
 * verify or restore read, hold or write more than this.
 */
export interface ArchiveLimits {
  /** Largest single file the manifest may declare. */
  maxMemberBytes: number;
  /** Largest sum of all files the manifest may declare. */
  maxTotalBytes: number;
  /** Most members (files, folders and the manifest) the manifest may declare. */
  maxMembers: number;
  /** Largest manifest.json (read into memory before anything else). */
  maxManifestBytes: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxMemberBytes: 16 * 1024 ** 3,
  maxTotalBytes: 64 * 1024 ** 3,
  maxMembers: 100_000,
  maxManifestBytes: 64 * 1024 ** 2,
};

/** A tar member as the rules see it: its name and node-tar's name of its type. */
export interface MemberHeader {
  path: string;
  type: string;
  size: number;
  linkpath?: string;
}

const FILE_TYPES = new Set(['File', 'OldFile']);
const DEVICE_TYPES = new Set(['CharacterDevice', 'BlockDevice', 'FIFO']);

/** `state/a/` → `state/a`, `./manifest.json` → `manifest.json`. */
export function memberName(path: string): string {
  return path.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
}

export const isFileType = (type: string): boolean => FILE_TYPES.has(type);
export const isDirectoryType = (type: string): boolean => type === 'Directory';

/** "regular file", "directory", "GNU sparse file", … */
export const describeType = (type: string): string => typeDescription(type);

function escapes(from: string, link: string): boolean {
  if (link.startsWith('/') || /^[A-Za-z]:/.test(link) || link.includes('\\')) return true;
  const resolved = posix.normalize(posix.join(posix.dirname(from), link));
  return resolved === '..' || resolved.startsWith('../') || resolved.startsWith('/');
}

/** Why a name cannot be a member's, or null: absolute, `..`, backslash, NUL. */
export function nameProblem(path: string): string | null {
  if (path.includes('\0')) return 'the name contains a NUL byte';
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.startsWith('\\'))
    return 'absolute path';
  if (path.includes('\\')) return 'the name contains a backslash';
  if (path.split('/').includes('..')) return 'path traversal (..)';
  return null;
}

/**
 * Why a member must not be read, or null when it may: absolute names, `..`, links (symbolic
 * or hard: a Hearth backup holds none, and one pointing outside is an attack), device files,
 * FIFOs and every other type but regular files and directories (GNU sparse files, long-name
 * records, volume labels, …), a file named like a folder, sizes beyond the per-member limit,
 * names outside `manifest.json` and `state/`. The manifest's own checks come after.
 */
export function memberProblem(header: MemberHeader, limits: ArchiveLimits): string | null {
  const { path, type } = header;
  const shown = JSON.stringify(path);
  const name = nameProblem(path);
  if (name) return `${shown}: ${name}`;
  if (type === 'SymbolicLink' || type === 'Link') {
    const what = type === 'SymbolicLink' ? 'symbolic link' : 'hard link';
    const link = header.linkpath ?? '';
    return escapes(path, link)
      ? `${shown}: ${what} to ${JSON.stringify(link)} points outside the archive`
      : `${shown}: ${what} (a Hearth backup holds none)`;
  }
  const only = 'a Hearth backup holds only regular files and directories';
  if (DEVICE_TYPES.has(type)) return `${shown}: device file or FIFO (${type}); ${only}`;
  if (!FILE_TYPES.has(type) && type !== 'Directory')
    return `${shown}: ${describeType(type)} (${type}); ${only}`;
  if (FILE_TYPES.has(type) && path.endsWith('/'))
    return `${shown}: a regular file named like a directory`;
  if (header.size > limits.maxMemberBytes)
    return `${shown}: ${header.size} bytes exceeds the limit of ${limits.maxMemberBytes} per member`;
  const member = memberName(path);
  if (member !== MANIFEST_NAME && member !== 'state' && !member.startsWith(STATE_PREFIX))
    return `${shown}: not part of a Hearth backup (expected ${MANIFEST_NAME} or ${STATE_PREFIX}…)`;
  return null;
}
