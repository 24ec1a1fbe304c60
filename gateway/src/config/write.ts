import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as TOML from '@decimalturn/toml-patch';
import { parseConfig } from './load.ts';

export type ConfigValue = string | number | boolean | string[];

/**
 * Sets keys of one section of config.toml, keeping comments, formatting and keys it does not
 * touch. The result is validated before it is written; the write is atomic (a temp file in the
 * same folder, fsync'd, then renamed) and the file ends with mode 0600.
 */
export async function updateConfigFile(
  path: string,
  section: string,
  values: Record<string, ConfigValue>,
): Promise<void> {
  let existing = '';
  try {
    existing = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const document = existing === '' ? {} : (TOML.parse(existing) as Record<string, unknown>);
  const current = (document[section] ?? {}) as Record<string, unknown>;
  const next = { ...document, [section]: { ...current, ...values } };
  const text = existing === '' ? TOML.stringify(next) : TOML.patch(existing, next);
  parseConfig(text, path);
  await writeFileAtomic(path, text);
}

export async function writeFileAtomic(path: string, text: string, mode = 0o600): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text, { mode, flush: true });
    await rename(temp, path);
    await chmod(path, mode);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
