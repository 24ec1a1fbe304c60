import { access, readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import * as TOML from '@decimalturn/toml-patch';
import { HearthError } from '../../errors.ts';
import type { Database } from '../../db/ports.ts';
import type { Embedder } from '../../memory/ports.ts';
import type { ValidateSkill } from '../../skills/ports.ts';
import { applyConfig, type ConfigReport } from './apply-config.ts';
import { mapConfig } from './config-keys.ts';
import { sourceLayout } from './formats.ts';
import { importMemoryRows, readPredecessorMemory, type MemoryImport } from './memory-rows.ts';
import { importPushSubscriptions, type PushReport } from './push-subscriptions.ts';
import { importSkills, type SkillsImport, type SkillTarget } from './skills.ts';

export const ALLOWLIST_NOTE =
  'The predecessor keeps no approval allowlist on disk (its shell tool’s program list is ' +
  'built into the program): nothing to migrate.';

export interface MigrationReport {
  source: string;
  dry_run: boolean;
  config: ConfigReport;
  memory: MemoryImport;
  skills: SkillsImport;
  allowlist: { found: 0; imported: 0; note: string };
  push_subscriptions: PushReport;
}

export interface MigrateOptions {
  /** The predecessor's state directory (`~/.neuralcleave`). */
  source: string;
  /** Hearth's config.toml. */
  configPath: string;
  dryRun: boolean;
  /** Hearth's store; absent in a dry run on a machine where Hearth has none yet. */
  database?: Database;
  skills?: SkillTarget;
  validate: ValidateSkill;
  embedder?: Embedder;
  /** Why there is no embedder (reported). */
  noEmbedder?: string;
  /** Hearth's push subscription store, `{data_dir}/push-subscriptions.json`. */
  pushStorePath: string;
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

async function readToml(path: string): Promise<Record<string, unknown>> {
  if (!(await exists(path))) return {};
  try {
    return TOML.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new HearthError(
      'validation',
      `${path} is not valid TOML: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** `[memory] sqlite_path`: `~/.neuralcleave/…` is read from the source folder given. */
function memoryDbPath(source: string, raw: Record<string, unknown>): string {
  const memory = raw.memory as Record<string, unknown> | undefined;
  const configured = typeof memory?.sqlite_path === 'string' ? memory.sqlite_path : '';
  const inSource = /^~[/\\]\.neuralcleave[/\\](.+)$/.exec(configured);
  if (inSource?.[1]) return join(source, inSource[1]);
  if (configured && isAbsolute(configured)) return configured;
  return sourceLayout(source).memoryDb;
}

function readMemory(path: string): ReturnType<typeof readPredecessorMemory> {
  try {
    return readPredecessorMemory(path);
  } catch (error) {
    throw new HearthError(
      'validation',
      `${path} is not the predecessor's memory database: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * `hearth migrate neuralcleave`: the predecessor's configuration, long-term memory, skills and
 * push subscriptions into this Hearth. A dry run reads everything and writes nothing; a real
 * run is idempotent (what is already there is counted, not added again).
 */
export async function migrateNeuralcleave(options: MigrateOptions): Promise<MigrationReport> {
  const { source, dryRun } = options;
  if (!(await exists(source)))
    throw new HearthError('not_found', `there is no predecessor state directory at ${source}`);
  const layout = sourceLayout(source);
  const raw = await readToml(layout.config);

  // Everything is read (and a broken source refused) before anything is written.
  const dbPath = memoryDbPath(source, raw);
  const predecessorMemory = (await exists(dbPath)) ? readMemory(dbPath) : undefined;
  const config = await applyConfig(mapConfig(raw), options.configPath, dryRun);

  let memory: MemoryImport = {
    found: 0,
    imported: 0,
    duplicates: 0,
    invalid: [],
    embedded: 0,
    embeddings_skipped: null,
  };
  if (predecessorMemory) {
    const { rows, invalid } = predecessorMemory;
    const imported = await importMemoryRows(rows, options.database?.memory, {
      embedder: options.embedder,
      noEmbedder: options.noEmbedder,
      dryRun,
    });
    memory = { found: rows.length + invalid.length, invalid, ...imported };
  }

  const skills = await importSkills(layout.skillsDir, {
    validate: options.validate,
    target: options.skills,
    dryRun,
  });

  return {
    source,
    dry_run: dryRun,
    config,
    memory,
    skills,
    allowlist: { found: 0, imported: 0, note: ALLOWLIST_NOTE },
    push_subscriptions: await importPushSubscriptions(
      layout.pushSubscriptions,
      options.pushStorePath,
      dryRun,
    ),
  };
}
