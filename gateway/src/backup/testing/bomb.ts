import { open } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';

const PIECE = 16 * 1024 * 1024;

/**
 * Writes `prefix` (a piece of tar) and then `zeros` zero bytes as one .tar.gz made of gzip
 * members one after another (which gunzip reads as one stream): a gigabyte of zeros costs
 * about a megabyte on disk and a fraction of a second to write.
 */
export async function writeZeroBomb(file: string, prefix: Buffer, zeros: number): Promise<void> {
  const piece = gzipSync(Buffer.alloc(PIECE), { level: 9 });
  const handle = await open(file, 'w', 0o600);
  try {
    await handle.write(gzipSync(prefix));
    for (let left = zeros; left > 0; left -= PIECE)
      await handle.write(left >= PIECE ? piece : gzipSync(Buffer.alloc(left), { level: 9 }));
  } finally {
    await handle.close();
  }
}
