import { z } from 'zod';

/** `skill.json` beside the code: what the store remembers about a skill between starts. */
export const manifestSchema = z.object({
  kind: z.enum(['mjs', 'py']),
  /** `error` is never stored: it is a load result. */
  state: z.enum(['active', 'quarantined', 'disabled']),
  origin: z.string().max(2048),
  version: z.string().max(64),
  tags: z.array(z.string().max(64)).max(32),
  /** Skills get no network unless the manifest asks (and the host audits it). */
  network: z.boolean(),
  /** The module default-exports a `Plugin` subclass. */
  plugin: z.boolean(),
  updated_at: z.number(),
});

export type SkillManifest = z.infer<typeof manifestSchema>;

export const MANIFEST_FILE = 'skill.json';
export const codeFile = (kind: 'mjs' | 'py'): string => `skill.${kind}`;
