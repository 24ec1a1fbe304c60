import { readFile } from 'node:fs/promises';
import * as TOML from '@decimalturn/toml-patch';
import { updateConfigFile } from '../../config/write.ts';
import type { ConfigMapping, ConfigValue } from './config-keys.ts';

export interface ConfigReport {
  /** Keys written to Hearth's config.toml (or that a real run would write). */
  set: { from: string; to: string; value: string }[];
  /** Keys Hearth's config.toml already sets: its value is kept. */
  kept: { from: string; to: string; same: boolean }[];
  invalid: ConfigMapping['invalid'];
  handled: ConfigMapping['handled'];
  unknown: string[];
}

const shown = (value: ConfigValue, secret: boolean) =>
  secret ? '(secret)' : JSON.stringify(value);

async function currentDocument(path: string): Promise<Record<string, Record<string, unknown>>> {
  try {
    const text = await readFile(path, 'utf8');
    return text.trim() === '' ? {} : (TOML.parse(text) as Record<string, Record<string, unknown>>);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
}

/**
 * Writes the mapped keys that Hearth's config.toml does not set yet (its own choices win, so a
 * second run changes nothing), one atomic, validated write per section. A dry run only reports.
 */
export async function applyConfig(
  mapping: ConfigMapping,
  configPath: string,
  dryRun: boolean,
): Promise<ConfigReport> {
  const document = await currentDocument(configPath);
  const report: ConfigReport = {
    set: [],
    kept: [],
    invalid: mapping.invalid,
    handled: mapping.handled,
    unknown: mapping.unknown,
  };
  const bySection = new Map<string, Record<string, ConfigValue>>();
  for (const { from, to, value, secret } of mapping.mapped) {
    const [section = '', key = ''] = to.split('.');
    const current = document[section]?.[key];
    if (current !== undefined) {
      report.kept.push({ from, to, same: JSON.stringify(current) === JSON.stringify(value) });
      continue;
    }
    report.set.push({ from, to, value: shown(value, secret) });
    bySection.set(section, { ...bySection.get(section), [key]: value });
  }
  if (!dryRun)
    for (const [section, values] of bySection) await updateConfigFile(configPath, section, values);
  return report;
}
