import type {
  CreatedBackup,
  ListedBackup,
  RestoreReport,
  VerifyReport,
} from '@hearth/gateway/backup';

/** 1536 → "1.5 KiB". */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}

export function formatCreated(created: CreatedBackup): string {
  const { manifest } = created;
  const databases = manifest.members.filter((member) => member.kind === 'sqlite');
  const lines = [
    `Backup written: ${created.archive} (${formatBytes(created.size)})`,
    `  ${manifest.members.length} files, ${databases.length} SQLite databases taken with the online backup API${
      databases.length ? `: ${databases.map((db) => db.path).join(', ')}` : ''
    }`,
  ];
  for (const skipped of manifest.skipped)
    lines.push(`  left out ${skipped.path}: ${skipped.reason}`);
  for (const note of manifest.notes) lines.push(`note: ${note}`);
  return lines.join('\n');
}

export function formatList(dir: string, listed: readonly ListedBackup[]): string {
  if (listed.length === 0) return `No backups in ${dir}.`;
  return listed
    .map((backup) => `${backup.name}  ${formatBytes(backup.size)}  ${backup.modified_at}`)
    .join('\n');
}

function problems(list: readonly string[]): string[] {
  return list.map((problem) => `  - ${problem}`);
}

export function formatVerified(report: VerifyReport): string {
  const databases = report.databases.map((db) => `${db.path} ${db.integrity}`).join(', ');
  if (report.ok)
    return `OK: ${report.archive}\n  ${report.members} files match the manifest's SHA-256${
      databases ? `; integrity_check: ${databases}` : ''
    }`;
  return [`FAILED: ${report.archive}`, ...problems(report.problems)].join('\n');
}

export function formatRestored(report: RestoreReport): string {
  if (report.ok)
    return `Restored ${report.members} files into ${report.target}${
      report.replaced ? ' (its previous contents were replaced)' : ''
    }.`;
  return [`REJECTED: ${report.archive}; nothing was written`, ...problems(report.problems)].join(
    '\n',
  );
}
