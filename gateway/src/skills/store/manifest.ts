import { z } from 'zod';
import { declaredHostProblem } from '../host/skill-fetch.ts';
import { SKILL_CAPABILITIES } from '../types.ts';

/** `skill.json` beside the code: what the store remembers about a skill between starts. */
export const manifestSchema = z.object({
  kind: z.enum(['mjs', 'py']),
  /** `error` is never stored: it is a load result. */
  state: z.enum(['active', 'quarantined', 'disabled']),
  origin: z.string().max(2048),
  version: z.string().max(64),
  tags: z.array(z.string().max(64)).max(32),
  /**
   * Skills get no network unless the manifest grants it here AND declares `hosts`; even then
   * their host has none: the gateway fetches for them (https, declared hosts only, public
   * addresses) and the privacy audit records each request as `skill:<name>`.
   */
  network: z.boolean(),
  /** Exact DNS names, optionally `name:port` (443 otherwise): the only hosts fetched for it. */
  hosts: z
    .array(
      z
        .string()
        .max(260)
        .refine((host) => declaredHostProblem(host) === undefined, {
          message: 'a host is a lower-case DNS name, optionally with :port',
        }),
    )
    .max(32)
    .default([]),
  /**
   * The gateway tools the skill may ask for while its calls run (`shell`, `browser`), as its
   * code declares them; every such request goes through the tool's approval gate.
   */
  capabilities: z.array(z.enum(SKILL_CAPABILITIES)).max(SKILL_CAPABILITIES.length).default([]),
  /**
   * Set by the owner by hand only (no install, hub package or review writes it, and a new
   * install replaces the manifest without it): where no wall exists (no working bubblewrap),
   * this one skill is hosted anyway, behind Node's permission model alone, which cannot keep
   * it off the network. Logged as a warning at every start, shown in /status and the entry.
   */
  without_wall: z.boolean().optional(),
  /** The module default-exports a `Plugin` subclass. */
  plugin: z.boolean(),
  updated_at: z.number(),
});

export type SkillManifest = z.infer<typeof manifestSchema>;

export const MANIFEST_FILE = 'skill.json';
export const codeFile = (kind: 'mjs' | 'py'): string => `skill.${kind}`;
