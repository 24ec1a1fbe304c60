import { createReadStream, createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { Header, Pax } from 'tar';
import { BLOCK, blocks } from './tar-format.ts';

/** One member to write: a folder, or a file whose bytes are read from `source`. */
export type TarEntry =
  | { type: 'directory'; path: string; mode: number; mtime: Date }
  | { type: 'file'; path: string; mode: number; mtime: Date; size: number; source: string };

function header(entry: TarEntry): Buffer[] {
  const path = entry.type === 'directory' ? `${entry.path}/` : entry.path;
  const size = entry.type === 'file' ? entry.size : 0;
  const block = Buffer.alloc(BLOCK);
  const needsPax = new Header({
    path,
    type: entry.type === 'directory' ? 'Directory' : 'File',
    mode: entry.mode,
    uid: 0,
    gid: 0,
    size,
    mtime: entry.mtime,
  }).encode(block, 0);
  return needsPax ? [new Pax({ path, size, mtime: entry.mtime }).encode(), block] : [block];
}

async function* tarBytes(entries: readonly TarEntry[]): AsyncGenerator<Buffer> {
  for (const entry of entries) {
    yield* header(entry);
    if (entry.type === 'directory') continue;
    let written = 0;
    for await (const chunk of createReadStream(entry.source)) {
      written += (chunk as Buffer).length;
      if (written > entry.size) break;
      yield chunk as Buffer;
    }
    if (written !== entry.size)
      throw new Error(`${entry.source} changed size while it was archived`);
    yield Buffer.alloc(blocks(entry.size) - entry.size);
  }
  yield Buffer.alloc(2 * BLOCK);
}

/**
 * Writes a tar.gz of exactly these members, in this order, with the modes given (not the
 * staged copies' own): POSIX ustar headers, a pax record only for a name or size ustar cannot
 * hold, owner 0:0, then the end-of-archive marker. The file is created 0600 and must not exist.
 */
export async function writeTarGz(file: string, entries: readonly TarEntry[]): Promise<void> {
  await pipeline(
    Readable.from(tarBytes(entries)),
    createGzip(),
    createWriteStream(file, { flags: 'wx', mode: 0o600 }),
  );
}
