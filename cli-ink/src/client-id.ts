import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** This CLI's persistent client id (its durable memory identity, like the web client's). */
export async function clientId(home: string): Promise<string> {
  const file = join(home, 'cli-client-id');
  try {
    const id = (await readFile(file, 'utf8')).trim();
    if (id) return id;
  } catch {
    // first use
  }
  const id = randomUUID();
  await writeFile(file, `${id}\n`, { mode: 0o600 });
  return id;
}
