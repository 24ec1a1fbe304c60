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
 * Reads config.toml (empty when missing), lets `change` return the next document, and writes
 * it back keeping comments, formatting and keys it does not touch. The result is validated
 * before it is written; the write is atomic (a temp file in the same folder, fsync'd, then
 * renamed) and the file ends with mode 0600.
 */
async function patchConfigFile(
  path: string,
  change: (document: Record<string, unknown>) => Record<string, unknown>,
): Promise<void> {
  let existing = '';
  try {
    existing = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const document = existing === '' ? {} : (TOML.parse(existing) as Record<string, unknown>);
  const next = change(document);
  const text = existing === '' ? TOML.stringify(next) : TOML.patch(existing, next);
  parseConfig(text, path);
  await writeFileAtomic(path, text);
}

const tableOf = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? { ...(value as Record<string, unknown>) } : {};

/** Sets keys of one section of config.toml (`[gateway]`), keeping everything else. */
export function updateConfigFile(
  path: string,
  section: string,
  values: Record<string, ConfigValue>,
): Promise<void> {
  return patchConfigFile(path, (document) => ({
    ...document,
    [section]: { ...tableOf(document[section]), ...values },
  }));
}

/**
 * Sets (or, with `null`, removes) one `[channels.<name>]`-style nested table of config.toml,
 * keeping everything else.
 */
export function setConfigTable(
  path: string,
  section: string,
  name: string,
  table: Record<string, ConfigValue> | null,
): Promise<void> {
  return patchConfigFile(path, (document) => {
    const current = tableOf(document[section]);
    if (table === null) delete current[name];
    else current[name] = table;
    return { ...document, [section]: current };
  });
}

/**
 * Sets keys of one existing `[channels.<name>]`-style nested table, keeping its other keys as
 * written (an `ENV:` reference stays a reference).
 */
export function updateConfigTable(
  path: string,
  section: string,
  name: string,
  values: Record<string, ConfigValue>,
): Promise<void> {
  return patchConfigFile(path, (document) => {
    const current = tableOf(document[section]);
    current[name] = { ...tableOf(current[name]), ...values };
    return { ...document, [section]: current };
  });
}
