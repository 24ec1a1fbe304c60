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
}

/**
 * A tar.gz written header by header, without the tar library's own path sanitising, so tests
 * can build what an attacker would: absolute names, `..`, links out, devices, lying sizes,
 * duplicates.
 */
export function rawTarGz(members: readonly RawMember[]): Buffer {
  const blocks: Buffer[] = [];
  for (const member of members) {
    const body = Buffer.from(member.body ?? '');
    const header = Buffer.alloc(512);
    new Header({
      path: member.path,
      type: member.type ?? 'File',
      size: member.size ?? body.length,
      linkpath: member.linkpath,
      mode: member.type === 'Directory' ? 0o755 : 0o644,
      mtime: new Date('2026-01-01T00:00:00Z'),
      devmaj: 1,
      devmin: 3,
    }).encode(header, 0);
    blocks.push(header, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}
