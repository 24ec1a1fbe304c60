import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Header, type HeaderData } from 'tar';

/** One member of a hand-built archive: any header a hostile archive might carry. */
export interface RawMember {
  path: string;
  type?: HeaderData['type'];
  body?: string | Buffer;
  /** The size the header declares (default: the body's length). */
  size?: number;
  linkpath?: string;
  mode?: number;
  /** Records of a pax extended header written just before this member, whatever their keys. */
  pax?: Record<string, string>;
}

/** The body of a pax extended header holding these records. */
export function paxBody(records: Record<string, string>): Buffer {
  return Buffer.concat(
    Object.entries(records).map(([key, value]) => {
      const text = ` ${key}=${value}\n`;
      let length = Buffer.byteLength(text) + 1;
      while (String(length).length + Buffer.byteLength(text) !== length) length += 1;
      return Buffer.from(`${length}${text}`);
    }),
  );
}

function headerBlock(member: RawMember, size: number): Buffer {
  const block = Buffer.alloc(512);
  new Header({
    path: member.path,
    type: member.type ?? 'File',
    size,
    linkpath: member.linkpath,
    mode: member.mode ?? (member.type === 'Directory' ? 0o755 : 0o644),
    uid: 0,
    gid: 0,
    mtime: new Date('2026-01-01T00:00:00Z'),
    devmaj: 1,
    devmin: 3,
  }).encode(block, 0);
  return block;
}

const padding = (length: number) => Buffer.alloc((512 - (length % 512)) % 512);

/** The uncompressed tar of these members, with its end-of-archive marker unless `end` is false. */
export function rawTar(members: readonly RawMember[], { end = true } = {}): Buffer {
  const blocks: Buffer[] = [];
  for (const member of members) {
    if (member.pax) {
      const body = paxBody(member.pax);
      blocks.push(
        headerBlock({ path: `PaxHeader/${member.path}`, type: 'ExtendedHeader' }, body.length),
        body,
        padding(body.length),
      );
    }
    const body = Buffer.from(member.body ?? '');
    blocks.push(headerBlock(member, member.size ?? body.length), body, padding(body.length));
  }
  if (end) blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

/**
 * A tar.gz written header by header, without the tar library's own path sanitising, so tests
 * can build what an attacker would: absolute names, `..`, links out, devices, sparse and
 * long-name records, pax oddities, lying sizes, duplicates.
 */
export function rawTarGz(members: readonly RawMember[]): Buffer {
  return gzipSync(rawTar(members));
}

const sha256 = (body: string | Buffer) => createHash('sha256').update(body).digest('hex');

/**
 * A valid manifest (version 2) listing every `state/…` member given, once: folders as
 * directories, everything else as a file with its body's size and SHA-256, and the folders on
 * the way to them. Not listed: names no manifest may hold (`..`, backslash, NUL) and members
 * under one that is not a folder. So an archive is refused for what its members are, not for
 * a missing or invalid manifest.
 */
export function manifestListing(members: readonly RawMember[]): RawMember {
  const name = (m: RawMember) => m.path.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  const clean = (path: string) => !/(^|\/)\.\.(\/|$)|\\|\0/.test(path);
  const byName = new Map<string, RawMember>();
  for (const m of members)
    if (name(m).startsWith('state/') && clean(name(m)) && !byName.has(name(m)))
      byName.set(name(m), m);
  const files: RawMember[] = [];
  const directories = new Map<string, number>();
  for (const [path, m] of byName) {
    const parents: string[] = [];
    for (let p = posix.dirname(path); p !== 'state' && p !== '.'; p = posix.dirname(p))
      parents.push(p);
    if (parents.some((p) => byName.has(p) && byName.get(p)?.type !== 'Directory')) continue;
    for (const p of parents) if (!directories.has(p)) directories.set(p, 0o700);
    if (m.type === 'Directory') directories.set(path, m.mode ?? 0o700);
    else files.push(m);
  }
  const manifest = {
    format: 'hearth-backup',
    version: 2,
    created_at: '2026-01-01T00:00:00.000Z',
    hearth_version: 'test',
    source: '/nowhere',
    members: files.map((m) => ({
      path: name(m),
      size: Buffer.byteLength(m.body ?? ''),
      sha256: sha256(m.body ?? ''),
      kind: 'file',
      mode: m.mode ?? 0o600,
    })),
    directories: [...directories].map(([path, mode]) => ({ path, mode })),
    skipped: [],
    notes: [],
  };
  return { path: 'manifest.json', body: JSON.stringify(manifest) };
}

/** `manifestListing(members)` first, then the members. */
export function listedTarGz(members: readonly RawMember[]): Buffer {
  return rawTarGz([manifestListing(members), ...members]);
}
