import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from '@hearth/gateway/backup';
import { type Command, InvalidArgumentError } from 'commander';

const UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

/** `65536`, `512M`, `64G`, `1TiB` (binary units) → bytes. */
export function parseByteSize(value: string): number {
  const match = /^(\d+)\s*([kmgt]?)(i?b)?$/i.exec(value.trim());
  const bytes = match ? Number(match[1]) * (UNITS[(match[2] ?? '').toLowerCase()] ?? 1) : NaN;
  if (!Number.isSafeInteger(bytes) || bytes <= 0)
    throw new InvalidArgumentError('expected a size in bytes, such as 500000000, 512M or 64G.');
  return bytes;
}

function parseCount(value: string): number {
  const count = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(count) || count <= 0)
    throw new InvalidArgumentError('expected a positive whole number.');
  return count;
}

export interface LimitOptions {
  maxBytes?: number;
  maxFileBytes?: number;
  maxMembers?: number;
}

const gib = (bytes: number) => `${bytes / 1024 ** 3}G`;

/** The archive limits as options of `create`, `verify` and `restore`. */
export function withLimitOptions(command: Command): Command {
  const d = DEFAULT_ARCHIVE_LIMITS;
  return command
    .option(
      '--max-bytes <size>',
      `largest sum of the files an archive may declare (default ${gib(d.maxTotalBytes)})`,
      parseByteSize,
    )
    .option(
      '--max-file-bytes <size>',
      `largest single file an archive may declare (default ${gib(d.maxMemberBytes)})`,
      parseByteSize,
    )
    .option(
      '--max-members <n>',
      `most files and folders an archive may declare (default ${d.maxMembers})`,
      parseCount,
    );
}

/** The limits the options give, the defaults for the rest. */
export function limitsFrom(options: LimitOptions): ArchiveLimits {
  const members = options.maxMembers ?? DEFAULT_ARCHIVE_LIMITS.maxMembers;
  return {
    maxTotalBytes: options.maxBytes ?? DEFAULT_ARCHIVE_LIMITS.maxTotalBytes,
    maxMemberBytes: options.maxFileBytes ?? DEFAULT_ARCHIVE_LIMITS.maxMemberBytes,
    maxMembers: members,
    // The manifest grows with the members it lists: room for each, and never below the default.
    maxManifestBytes: Math.max(
      DEFAULT_ARCHIVE_LIMITS.maxManifestBytes,
      Math.ceil(
        (DEFAULT_ARCHIVE_LIMITS.maxManifestBytes * members) / DEFAULT_ARCHIVE_LIMITS.maxMembers,
      ),
    ),
  };
}
