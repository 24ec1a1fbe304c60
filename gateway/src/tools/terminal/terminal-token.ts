import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** 256 random bits, base64url: 43 characters. */
const TOKEN_BYTES = 32;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The embedded terminal's local token, `{data_dir}/terminal.token` (0600): the secret
 * `/ws/terminal` needs when no API key is set, so another account on the same machine cannot
 * open a shell as the gateway's user. Created on first start; kept while it is well-formed,
 * owned by this user and readable by nobody else, otherwise replaced (atomically) by a new one.
 */
export async function loadOrCreateTerminalToken(file: string): Promise<string> {
  try {
    const [text, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
    const token = text.trim();
    const ownedByUs = process.getuid === undefined || info.uid === process.getuid();
    if (TOKEN_SHAPE.test(token) && ownedByUs && (info.mode & 0o077) === 0) return token;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, `${token}\n`, { mode: 0o600, flag: 'wx' });
  await rename(temporary, file);
  return token;
}
