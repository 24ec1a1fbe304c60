import { z } from 'zod';

/** The archive's first member: what it holds and the SHA-256 of every other member. */
export const MANIFEST_NAME = 'manifest.json';
/** Every state-directory file sits under this folder of the archive. */
export const STATE_PREFIX = 'state/';
export const MANIFEST_FORMAT = 'hearth-backup';
/**
 * 2: every file and folder with its mode, folders as members of their own. 1 (before): files
 * only, without modes; still read, restored with {@link DEFAULT_FILE_MODE} and
 * {@link DEFAULT_DIRECTORY_MODE}.
 */
export const MANIFEST_VERSION = 2;
/** The modes an archive without recorded modes (manifest version 1) is restored with. */
export const DEFAULT_FILE_MODE = 0o600;
export const DEFAULT_DIRECTORY_MODE = 0o700;

/** Permission bits plus setuid, setgid and sticky as recorded; a restore keeps only 0o777. */
const mode = z.number().int().min(0).max(0o7777);

const memberSchema = z.strictObject({
  /** The archive path (`state/…`). */
  path: z.string().min(1),
  size: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** `sqlite`: taken through SQLite's online backup API; `file`: copied. */
  kind: z.enum(['sqlite', 'file']),
  /** The file's permission bits (version 2). */
  mode: mode.optional(),
});

const directorySchema = z.strictObject({
  /** The archive path (`state/…`, no trailing slash). */
  path: z.string().min(1),
  mode,
});

export const manifestSchema = z
  .strictObject({
    format: z.literal(MANIFEST_FORMAT),
    version: z.union([z.literal(1), z.literal(MANIFEST_VERSION)]),
    created_at: z.iso.datetime(),
    hearth_version: z.string(),
    /** The state directory the archive was taken of. */
    source: z.string(),
    members: z.array(memberSchema),
    /** Every folder under the state directory, with its mode (version 2). */
    directories: z.array(directorySchema).optional(),
    /** Files of the state directory left out on purpose, with the reason. */
    skipped: z.array(z.strictObject({ path: z.string(), reason: z.string() })),
    /** What the archive does not hold and how to save it (PostgreSQL: the pg_dump command). */
    notes: z.array(z.string()),
  })
  .superRefine((manifest, ctx) => {
    const v2 = manifest.version === MANIFEST_VERSION;
    if (v2 !== (manifest.directories !== undefined))
      ctx.addIssue({
        code: 'custom',
        message: v2 ? 'version 2 lists its directories' : 'version 1 has no directories',
      });
    if (manifest.members.some((member) => (member.mode !== undefined) !== v2))
      ctx.addIssue({
        code: 'custom',
        message: v2 ? 'version 2 gives every member a mode' : 'version 1 has no modes',
      });
  });

export type BackupManifest = z.infer<typeof manifestSchema>;
export type ManifestMember = BackupManifest['members'][number];
export type ManifestDirectory = NonNullable<BackupManifest['directories']>[number];
