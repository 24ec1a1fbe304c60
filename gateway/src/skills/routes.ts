import { z } from 'zod';
import { notFound } from '../errors.ts';
import { defineRoute, type AnyRoute } from '../http/route.ts';
import type { ReviewService } from './review/review-service.ts';
import { describeTools } from './scanner/judge.ts';
import type { ValidateSkill } from './types.ts';
import { proposalSchema } from './review/proposals.ts';
import { skillNameProblem } from './store/names.ts';
import { MAX_SKILL_SOURCE_BYTES, type SkillEntry, type SkillStore } from './store/skill-store.ts';

export const skillName = z.string().superRefine((value, ctx) => {
  const problem = skillNameProblem(value);
  if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
});

export const skillCode = z
  .string()
  .min(1)
  .refine((code) => Buffer.byteLength(code, 'utf8') <= MAX_SKILL_SOURCE_BYTES, {
    message: `must be at most ${MAX_SKILL_SOURCE_BYTES} bytes`,
  });

export const skillSchema = z.object({
  name: z.string(),
  kind: z.enum(['mjs', 'py']),
  state: z.enum(['active', 'quarantined', 'disabled', 'error']),
  tools: z.array(z.string()),
  load_error: z.string().nullable(),
  origin: z.string(),
  version: z.string(),
  tags: z.array(z.string()),
  plugin: z.boolean(),
  /** Gateway tools its calls may ask for (`shell`, `browser`), each behind the approval gate. */
  capabilities: z.array(z.string()),
  /**
   * Its owner set `"without_wall": true` in its skill.json by hand: where no wall exists it
   * runs behind Node's permission model alone, which cannot keep it off the network.
   */
  without_wall: z.boolean(),
  /** skill.json `network`: the gateway fetches for it (only `hosts`; its host has no network). */
  network: z.boolean(),
  /** The hosts the gateway fetches for it over https (skill.json `hosts`); none: no network. */
  hosts: z.array(z.string()),
  updated_at: z.number(),
});

export const toSkillView = (entry: SkillEntry): z.input<typeof skillSchema> => ({
  name: entry.name,
  kind: entry.kind,
  state: entry.state,
  tools: entry.tools,
  load_error: entry.load_error,
  origin: entry.origin,
  version: entry.version,
  tags: entry.tags,
  plugin: entry.plugin,
  capabilities: entry.capabilities,
  without_wall: entry.without_wall,
  network: entry.network,
  hosts: entry.hosts,
  updated_at: entry.updated_at,
});

const nameParams = z.object({ name: skillName });
const idParams = z.object({ id: z.string().min(1).max(64) });

export interface SkillRouteDeps {
  store: () => SkillStore;
  review: () => ReviewService;
  /** Layer 1, to show a skill's tool descriptions as the model sees them (GET /skills/{name}). */
  validate?: ValidateSkill;
}

const toolDescriptions = z.array(
  z.object({ name: z.string(), description: z.string(), truncated: z.boolean() }),
);

/** `/skills`: the trusted writer, the installed skills and their states, and the review queue. */
export function skillRoutes(deps: SkillRouteDeps): AnyRoute[] {
  const mustGet = (name: string): SkillEntry => {
    const entry = deps.store().get(name);
    if (!entry) throw notFound(`No skill named '${name}'`);
    return entry;
  };
  return [
    defineRoute({
      method: 'get',
      path: '/skills',
      summary: 'Installed skills: name, tools, state and load error',
      tags: ['skills'],
      response: z.object({ skills: z.array(skillSchema) }),
      handler: () => ({ skills: deps.store().list().map(toSkillView) }),
    }),
    defineRoute({
      method: 'post',
      path: '/skills',
      summary: 'Trusted write: validates, writes and hot-loads a skill (clears a quarantine)',
      tags: ['skills'],
      body: z.object({
        name: skillName,
        code: skillCode,
        kind: z.enum(['mjs', 'py']).default('mjs'),
        version: z.string().min(1).max(64).optional(),
        tags: z.array(z.string().min(1).max(64)).max(32).optional(),
      }),
      response: skillSchema,
      status: 201,
      handler: async ({ body }) =>
        toSkillView(
          await deps.store().install({
            name: body.name,
            kind: body.kind,
            source: body.code,
            origin: 'trusted',
            version: body.version,
            tags: body.tags,
          }),
        ),
    }),
    defineRoute({
      method: 'get',
      path: '/skills/review/pending',
      summary: 'Skill proposals from the agent waiting for a human decision',
      tags: ['skills'],
      response: z.object({ pending: z.array(proposalSchema) }),
      handler: async () => ({ pending: await deps.review().pending() }),
    }),
    defineRoute({
      method: 'get',
      path: '/skills/review/{id}',
      summary: 'One pending skill proposal with its code',
      tags: ['skills'],
      params: idParams,
      response: proposalSchema,
      handler: ({ params }) => deps.review().get(params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/skills/review/{id}/approve',
      summary: 'Approve a proposal: written, loaded, its tools callable from the next turn',
      tags: ['skills'],
      params: idParams,
      response: z.object({ id: z.string(), approved: z.literal(true), skill: skillSchema }),
      handler: async ({ params }) => ({
        id: params.id,
        approved: true as const,
        skill: toSkillView(await deps.review().approve(params.id)),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/skills/review/{id}/reject',
      summary: 'Reject a proposal: it is never written',
      tags: ['skills'],
      params: idParams,
      response: z.object({ id: z.string(), rejected: z.literal(true), name: z.string() }),
      handler: async ({ params }) => {
        const proposal = await deps.review().reject(params.id);
        return { id: proposal.id, rejected: true as const, name: proposal.name };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/skills/{name}',
      summary: 'One skill with its code',
      tags: ['skills'],
      params: nameParams,
      response: skillSchema.extend({
        code: z.string(),
        /** Additive: each tool's description as the model sees it (capped at 1024 characters). */
        tool_descriptions: toolDescriptions.optional(),
      }),
      handler: async ({ params }) => {
        const entry = mustGet(params.name);
        const code = await deps.store().source(params.name);
        const tools = deps.validate ? (await deps.validate(code, entry.kind)).tools : undefined;
        return {
          ...toSkillView(entry),
          code,
          ...(tools ? { tool_descriptions: describeTools(tools).described } : {}),
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/skills/{name}/quarantine',
      summary: 'Unload a skill without deleting it; writing it again clears the quarantine',
      tags: ['skills'],
      params: nameParams,
      response: skillSchema,
      handler: async ({ params }) => toSkillView(await deps.store().quarantine(params.name)),
    }),
    defineRoute({
      method: 'delete',
      path: '/skills/{name}',
      summary: 'Unload and delete a skill (its files and its data folder)',
      tags: ['skills'],
      params: nameParams,
      response: z.object({ name: z.string(), deleted: z.literal(true) }),
      handler: async ({ params }) => {
        if (!(await deps.store().remove(params.name)))
          throw notFound(`No skill named '${params.name}'`);
        return { name: params.name, deleted: true as const };
      },
    }),
  ];
}
