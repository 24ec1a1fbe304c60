import { randomBytes } from 'node:crypto';

/**
 * The first line of `input`, trimmed: how `setup --key-stdin` and `config set-key --stdin` read
 * a secret, so it never appears in the command line or the shell history. At most 4 KiB is read.
 */
export async function readFirstLine(input: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of input) {
    text += String(chunk);
    if (text.includes('\n') || text.length > 4096) break;
  }
  return text.split('\n')[0]?.trim() ?? '';
}

/** A new random gateway API key: 256 bits, base64url. */
export const newGatewayKey = (): string => randomBytes(32).toString('base64url');
