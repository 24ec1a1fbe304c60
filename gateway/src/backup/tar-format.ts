/**
 * The tar format as a backup reads it, byte by byte and strictly: a header block decoded
 * without guessing (no old-style "file ending in / is a folder", no silent skipping of
 * unknown types), a checksum that must match, pax records that must be well formed.
 */

export const BLOCK = 512;

/** `n` rounded up to whole 512-byte blocks. */
export const blocks = (n: number): number => Math.ceil(n / BLOCK) * BLOCK;

/** Every tar type flag, with the name node-tar gives it and what it is, for error messages. */
const TYPE_FLAGS: ReadonlyMap<string, { type: string; what: string }> = new Map([
  ['0', { type: 'File', what: 'regular file' }],
  ['\0', { type: 'OldFile', what: 'regular file' }],
  ['1', { type: 'Link', what: 'hard link' }],
  ['2', { type: 'SymbolicLink', what: 'symbolic link' }],
  ['3', { type: 'CharacterDevice', what: 'character device' }],
  ['4', { type: 'BlockDevice', what: 'block device' }],
  ['5', { type: 'Directory', what: 'directory' }],
  ['6', { type: 'FIFO', what: 'FIFO' }],
  ['7', { type: 'ContiguousFile', what: 'contiguous file' }],
  ['g', { type: 'GlobalExtendedHeader', what: 'pax global header' }],
  ['x', { type: 'ExtendedHeader', what: 'pax extended header' }],
  ['A', { type: 'SolarisACL', what: 'Solaris ACL' }],
  ['D', { type: 'GNUDumpDir', what: 'GNU dump directory' }],
  ['E', { type: 'SolarisExtendedAttributes', what: 'Solaris extended attributes' }],
  ['I', { type: 'Inode', what: 'inode metadata' }],
  ['K', { type: 'NextFileHasLongLinkpath', what: 'GNU long link name' }],
  ['L', { type: 'NextFileHasLongPath', what: 'GNU long name' }],
  ['M', { type: 'ContinuationFile', what: 'GNU multi-volume continuation' }],
  ['N', { type: 'OldGnuLongPath', what: 'old GNU long name' }],
  ['S', { type: 'SparseFile', what: 'GNU sparse file' }],
  ['V', { type: 'TapeVolumeHeader', what: 'GNU volume label' }],
  ['X', { type: 'OldExtendedHeader', what: 'Solaris extended header' }],
]);

/** `File`, `SparseFile`, … or `Unknown(0x51)` for a flag no tar defines. */
export function typeName(flag: string): string {
  return TYPE_FLAGS.get(flag)?.type ?? `Unknown(0x${flag.charCodeAt(0).toString(16)})`;
}

/** "GNU sparse file", "symbolic link", … or "unknown member type" for a flag no tar defines. */
export function typeDescription(type: string): string {
  for (const entry of TYPE_FLAGS.values()) if (entry.type === type) return entry.what;
  return 'unknown member type';
}

/** One decoded header block. */
export interface RawHeader {
  /** The name as the header spells it (ustar prefix joined), before any pax record. */
  name: string;
  flag: string;
  /** node-tar's name of the type (`File`, `Directory`, `SparseFile`, …). */
  type: string;
  size: number;
  /** Permission and special bits of the header (a backup's manifest is what counts). */
  mode: number;
  linkpath: string;
}

export class TarFormatError extends Error {}

function text(block: Buffer, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('utf8');
}

/** An octal field (NUL or space terminated), or base-256 when its first byte has the high bit. */
function number(block: Buffer, offset: number, length: number, field: string): number {
  const bytes = block.subarray(offset, offset + length);
  if ((bytes[0] ?? 0) & 0x80) {
    if (bytes[0] === 0xff) throw new TarFormatError(`negative ${field} field`);
    let value = (bytes[0] ?? 0) & 0x7f;
    for (const byte of bytes.subarray(1)) value = value * 256 + byte;
    if (!Number.isSafeInteger(value)) throw new TarFormatError(`${field} field out of range`);
    return value;
  }
  const digits = bytes
    .toString('latin1')
    .replace(/[\0 ]+$/, '')
    .replace(/^ +/, '');
  if (!/^[0-7]*$/.test(digits)) throw new TarFormatError(`${field} field is not octal`);
  return digits === '' ? 0 : parseInt(digits, 8);
}

/** True for a block of 512 zero bytes (one half of the end-of-archive marker). */
export function isZeroBlock(block: Buffer): boolean {
  for (const byte of block) if (byte !== 0) return false;
  return true;
}

/**
 * Decodes a non-zero header block: the checksum must match, the magic must be ustar (POSIX
 * `ustar\0` `00`, whose prefix field extends the name, or GNU `ustar  \0`).
 */
export function decodeHeader(block: Buffer): RawHeader {
  const stored = number(block, 148, 8, 'checksum');
  let unsigned = 8 * 0x20;
  let signed = 8 * 0x20;
  for (let i = 0; i < BLOCK; i += 1) {
    if (i >= 148 && i < 156) continue;
    const byte = block[i] ?? 0;
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  if (stored !== unsigned && stored !== signed)
    throw new TarFormatError('header checksum does not match');
  const magic = block.subarray(257, 265).toString('latin1');
  const posix = magic === 'ustar\u000000';
  if (!posix && magic !== 'ustar  \0') throw new TarFormatError('not a ustar header');
  const name = text(block, 0, 100);
  const prefix = posix ? text(block, 345, 155) : '';
  const flag = String.fromCharCode(block[156] ?? 0);
  return {
    name: prefix ? `${prefix}/${name}` : name,
    flag,
    type: typeName(flag),
    size: number(block, 124, 12, 'size'),
    mode: number(block, 100, 8, 'mode') & 0o7777,
    linkpath: text(block, 157, 100),
  };
}

/** The pax keys a backup member may carry; anything else (sparse maps, ACLs, …) is refused. */
const PAX_KEYS = new Set([
  'path',
  'size',
  'mtime',
  'atime',
  'ctime',
  'uid',
  'gid',
  'uname',
  'gname',
]);
const NUMERIC_PAX_KEYS = new Set(['size', 'uid', 'gid']);
const TIME_PAX_KEYS = new Set(['mtime', 'atime', 'ctime']);

/**
 * The records of a pax extended header (`<length> <key>=<value>\n`, the length counting the
 * whole record in bytes). Malformed records, repeated keys and keys outside the few a file
 * needs are errors, not silently dropped as lenient readers do.
 */
export function parsePax(body: Buffer): Map<string, string> {
  const records = new Map<string, string>();
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    const digits = space === -1 ? '' : body.subarray(at, space).toString('latin1');
    if (!/^[1-9][0-9]{0,5}$/.test(digits)) throw new TarFormatError('malformed pax record');
    const length = Number(digits);
    const end = at + length;
    if (end > body.length || body[end - 1] !== 0x0a)
      throw new TarFormatError('malformed pax record');
    const record = body.subarray(space + 1, end - 1).toString('utf8');
    const equals = record.indexOf('=');
    if (equals <= 0) throw new TarFormatError('malformed pax record');
    const key = record.slice(0, equals);
    const value = record.slice(equals + 1);
    if (!PAX_KEYS.has(key))
      throw new TarFormatError(`pax record ${JSON.stringify(key)} (a Hearth backup has none)`);
    if (records.has(key)) throw new TarFormatError(`pax record ${JSON.stringify(key)} repeated`);
    if (value.includes('\0')) throw new TarFormatError(`pax record ${key} contains a NUL byte`);
    if (NUMERIC_PAX_KEYS.has(key) && !/^[0-9]{1,16}$/.test(value))
      throw new TarFormatError(`pax record ${key} is not a number`);
    if (TIME_PAX_KEYS.has(key) && !/^-?[0-9]{1,16}(\.[0-9]{1,12})?$/.test(value))
      throw new TarFormatError(`pax record ${key} is not a time`);
    if (key === 'path' && value === '') throw new TarFormatError('pax record path is empty');
    records.set(key, value);
    at = end;
  }
  return records;
}
