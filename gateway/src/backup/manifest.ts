import { z } from 'zod';

/** The archive's first member: what it holds and the SHA-256 of every other member. */
export const MANIFEST_NAME = 'manifest.json';
/** Every state-directory file sits under this folder of the archive. */
export const STATE_PREFIX = 'state/';
export const MANIFEST_FORMAT = 'hearth-backup';
export const MANIFEST_VERSION = 1;
/** A manifest larger than this is not one Hearth wrote. */
export const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;

const memberSchema = z.strictObject({
  /** The archive path (`state/…`). */
  path: z.string().min(1),
  size: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** `sqlite`: taken through SQLite's online backup API; `file`: copied. */
  kind: z.enum(['sqlite', 'file']),
});

export const manifestSchema = z.strictObject({
  format: z.literal(MANIFEST_FORMAT),
  version: z.literal(MANIFEST_VERSION),
  created_at: z.iso.datetime(),
  hearth_version: z.string(),
  /** The state directory the archive was taken of. */
  source: z.string(),
  members: z.array(memberSchema),
  /** Files of the state directory left out on purpose, with the reason. */
  skipped: z.array(z.strictObject({ path: z.string(), reason: z.string() })),
  /** What the archive does not hold and how to save it (PostgreSQL: the pg_dump command). */
  notes: z.array(z.string()),
});

export type BackupManifest = z.infer<typeof manifestSchema>;
export type ManifestMember = BackupManifest['members'][number];
