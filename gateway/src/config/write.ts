import { readFile } from 'node:fs/promises';
import * as TOML from '@decimalturn/toml-patch';
import { writeFileAtomic } from './atomic-write.ts';
import { parseConfig } from './load.ts';

export { writeFileAtomic } from './atomic-write.ts';

/** A table inside an array of tables (`[[mcp.servers]]`). */
export interface ConfigTable {
  [key: string]: string | number | boolean | string[] | Record<string, string>;
}

export type ConfigValue = string | number | boolean | string[] | ConfigTable[];

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

/**
 * Sets (or, with `null`, removes) one `[channels.<name>]`-style nested table of config.toml,
 * keeping everything else; validated and written atomically like `updateConfigFile`.
 */
export async function setConfigTable(
  path: string,
  section: string,
  name: string,
  table: Record<string, ConfigValue> | null,
): Promise<void> {
  let existing = '';
  try {
    existing = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const document = existing === '' ? {} : (TOML.parse(existing) as Record<string, unknown>);
  const current = { ...((document[section] ?? {}) as Record<string, unknown>) };
  if (table === null) delete current[name];
  else current[name] = table;
  const next = { ...document, [section]: current };
  const text = existing === '' ? TOML.stringify(next) : TOML.patch(existing, next);
  parseConfig(text, path);
  await writeFileAtomic(path, text);
}
