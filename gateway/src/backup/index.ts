/** Backup and restore of the state directory (the CLI's `hearth backup …`). */
export { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from './archive-rules.ts';
export { backupsDirFor } from './backup-dir.ts';
export { createBackup, type BackupProgress, type CreatedBackup } from './create-backup.ts';
export { listBackups, type ListedBackup } from './list-backups.ts';
export type { BackupManifest } from './manifest.ts';
export { restoreBackup, type RestoreReport } from './restore-backup.ts';
export { verifyBackup, type VerifyReport } from './verify-backup.ts';
