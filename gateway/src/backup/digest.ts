import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** SHA-256 (lower-case hex) of a file's bytes, streamed. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
