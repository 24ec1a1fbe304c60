import { z } from 'zod';
import { noControlChars } from '../http/validation.ts';
import { NAME_RULE, isPackageName } from './package-name.ts';

export const packageName = z.string().refine(isPackageName, NAME_RULE);

export const nameParams = z.object({ name: packageName });

const kind = z.enum(['mjs', 'py']);
const tag = z
  .string()
  .regex(
    /^[\p{L}\p{N}][\p{L}\p{N}._-]{0,31}$/u,
    'must be 1 to 32 letters, digits, ".", "_" or "-"',
  );

/** POST /hub/packages: the URL and, optionally, how to install it. */
export const installBody = z.strictObject({
  url: z.string().min(1).check(noControlChars),
  name: packageName.optional(),
  kind: kind.optional(),
  version: z
    .string()
    .regex(
      /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$/,
      'must be 1 to 64 letters, digits, ".", "+", "_" or "-"',
    )
    .optional(),
  tags: z.array(tag).max(20, 'at most 20 tags').optional(),
  expected_checksum: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be a SHA-256 digest: 64 hexadecimal digits')
    .transform((hex) => hex.toLowerCase())
    .optional(),
  force: z.boolean().optional(),
});

/** POST /hub/install (form B): a name and a URL, the rest as POST /hub/packages takes it. */
export const formBInstallBody = installBody.extend({ name: packageName });

export const packageRecord = z.object({
  name: z.string(),
  version: z.string(),
  tags: z.array(z.string()),
  enabled: z.boolean(),
  kind,
  state: z.enum(['active', 'quarantined', 'disabled', 'error']),
  tools: z.array(z.string()),
  origin: z.string(),
  load_error: z.string().nullable(),
});

const scanResult = z.object({
  flagged: z.boolean(),
  findings: z.array(
    z.object({
      rule: z.string(),
      line: z.number().int(),
      severity: z.enum(['low', 'medium', 'high', 'critical']),
      message: z.string(),
    }),
  ),
});

/** A tool's description as the model sees it (capped at 1024 characters). */
const toolDescriptions = z.array(
  z.object({ name: z.string(), description: z.string(), truncated: z.boolean() }),
);

export const installedResponse = packageRecord.extend({
  sha256: z.string(),
  scan: scanResult,
  /** True when the scanner flagged the package and `force` installed it anyway. */
  forced: z.boolean(),
  /** Additive: the tools' descriptions as the model will see them. */
  tool_descriptions: toolDescriptions,
});

export const packagesResponse = z.object({
  available: z.boolean(),
  packages: z.array(packageRecord),
});

export const searchQuery = z.strictObject({
  q: z.string().min(1).max(200).check(noControlChars),
});
export const searchResponse = z.object({
  query: z.string(),
  packages: z.array(packageRecord),
  count: z.number().int(),
});

export const enabledBody = z.strictObject({ enabled: z.boolean() });
export const removedResponse = z.object({ name: z.string(), removed: z.literal(true) });

export const scanBody = z.strictObject({
  code: z.string().min(1),
  kind: kind.default('mjs'),
});
/**
 * The verdict an install would reach: every finding of layer 1 and the scanner; additive
 * fields say whether layer 1 refuses it (no force installs it) and show the descriptions.
 */
export const scanResponse = scanResult.extend({
  refused: z.boolean(),
  tool_descriptions: toolDescriptions,
});

export const statusResponse = z.object({
  available: z.boolean(),
  total: z.number().int(),
  enabled: z.number().int(),
});
