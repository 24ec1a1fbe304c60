import { posix } from 'node:path';
import { MANIFEST_NAME, STATE_PREFIX } from './manifest.ts';

/** What a restore or verify accepts from an archive before it writes a byte. */
export interface ArchiveLimits {
  /** Largest single member (declared size in its header). */
  maxMemberBytes: number;
  /** Largest sum of all members. */
  maxTotalBytes: number;
  maxMembers: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxMemberBytes: 16 * 1024 ** 3,
  maxTotalBytes: 64 * 1024 ** 3,
  maxMembers: 100_000,
};

/** A tar header as the rules see it. */
export interface MemberHeader {
  path: string;
  type: string;
  size: number;
  linkpath?: string;
}

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);
const DEVICE_TYPES = new Set(['CharacterDevice', 'BlockDevice', 'FIFO']);

/** `state/a/` → `state/a`, `./manifest.json` → `manifest.json`. */
export function memberName(path: string): string {
  return path.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
}

function escapes(from: string, link: string): boolean {
  if (link.startsWith('/') || /^[A-Za-z]:/.test(link) || link.includes('\\')) return true;
  const resolved = posix.normalize(posix.join(posix.dirname(from), link));
  return resolved === '..' || resolved.startsWith('../') || resolved.startsWith('/');
}

/**
 * Why a member must not be extracted, or null when it may: absolute names, `..`, links
 * (symbolic or hard: a Hearth backup holds none, and one pointing outside is an attack),
 * device files and FIFOs, members beyond the size limit, names outside `manifest.json` and
 * `state/`. Duplicates and totals are counted by the caller.
 */
export function memberProblem(header: MemberHeader, limits: ArchiveLimits): string | null {
  const { path, type } = header;
  const shown = JSON.stringify(path);
  if (path.includes('\0')) return `${shown}: the name contains a NUL byte`;
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.startsWith('\\'))
    return `${shown}: absolute path`;
  if (path.includes('\\')) return `${shown}: the name contains a backslash`;
  if (path.split('/').includes('..')) return `${shown}: path traversal (..)`;
  if (type === 'SymbolicLink' || type === 'Link') {
    const what = type === 'SymbolicLink' ? 'symbolic link' : 'hard link';
    const link = header.linkpath ?? '';
    return escapes(path, link)
      ? `${shown}: ${what} to ${JSON.stringify(link)} points outside the archive`
      : `${shown}: ${what} (a Hearth backup holds none)`;
  }
  if (DEVICE_TYPES.has(type)) return `${shown}: device file or FIFO (${type})`;
  if (!FILE_TYPES.has(type) && type !== 'Directory')
    return `${shown}: unsupported member type ${type}`;
  if (header.size > limits.maxMemberBytes)
    return `${shown}: ${header.size} bytes exceeds the limit of ${limits.maxMemberBytes} per member`;
  const name = memberName(path);
  if (name !== MANIFEST_NAME && name !== 'state' && !name.startsWith(STATE_PREFIX))
    return `${shown}: not part of a Hearth backup (expected ${MANIFEST_NAME} or ${STATE_PREFIX}…)`;
  return null;
}

export const isFileType = (type: string): boolean => FILE_TYPES.has(type);
