import type { MigrationReport } from '@hearth/gateway/migrate-neuralcleave';

/** The migration report as text: what was (or, in a dry run, would be) brought over. */
export function formatMigration(report: MigrationReport): string {
  const { config, memory, skills, allowlist, push_subscriptions: push } = report;
  const would = report.dry_run ? 'would be ' : '';
  const lines = [
    `${report.dry_run ? 'Dry run: nothing was written. ' : ''}Migration from ${report.source}`,
    '',
    'config.toml:',
    ...config.set.map((key) => `  ${key.from} → ${key.to} = ${key.value} (${would}set)`),
    ...config.kept.map(
      (key) => `  ${key.from} → ${key.to}: ${key.same ? 'already set' : 'kept Hearth’s own value'}`,
    ),
    ...config.handled.map((key) => `  ${key.from}: ${key.reason}`),
    ...config.invalid.map((key) => `  ${key.from} → ${key.to}: not taken (${key.reason})`),
    ...config.unknown.map((key) => `  ${key}: unknown to Hearth, not copied`),
    '',
    `memory: ${memory.found} rows found, ${memory.imported} ${would}imported, ${memory.duplicates} already present`,
    ...(memory.found > 0 && !report.dry_run
      ? [
          memory.embeddings_skipped
            ? `  embeddings not computed: ${memory.embeddings_skipped}`
            : `  ${memory.embedded} embeddings computed`,
        ]
      : []),
    ...memory.invalid.map((row) => `  row ${String(row.id)} not read: ${row.reason}`),
    '',
    `skills: ${skills.imported.length} ${would}imported${
      skills.imported.length ? ` (${skills.imported.join(', ')})` : ''
    }, ${skills.unchanged.length} already present, ${skills.rejected.length} rejected`,
    ...skills.rejected.map((skill) => `  ${skill.name}: ${skill.reason}`),
    '',
    `allowlist: ${allowlist.note}`,
    `push subscriptions: ${push.found} found${
      push.services.length ? ` (${push.services.join(', ')})` : ''
    }, ${push.imported} ${would}imported, ${push.duplicates} already present, ${
      push.invalid.length
    } invalid; ${push.note}`,
    ...push.invalid.map((entry) => `  ${entry.id}: ${entry.reason}`),
  ];
  return lines.join('\n');
}
