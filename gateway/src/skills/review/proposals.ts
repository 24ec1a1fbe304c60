import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { HearthError, notFound } from '../../errors.ts';
import { ensurePrivateDir, removeInside, writeFileAtomic } from '../store/safe-files.ts';

export const proposalSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['mjs', 'py']),
  code: z.string(),
  description: z.string().nullable(),
  /** The tools the code would export, as layer 1 read them. */
  tools: z.array(z.string()),
  /** Additive: the tools' descriptions as the model would see them (capped), for the reviewer. */
  tool_descriptions: z
    .array(z.object({ name: z.string(), description: z.string(), truncated: z.boolean() }))
    .optional(),
  /** Additive: the verdict a hub install of this code would reach (layer 1 and the scanner). */
  scan: z
    .object({
      flagged: z.boolean(),
      findings: z.array(
        z.object({
          rule: z.string(),
          line: z.number().int(),
          severity: z.enum(['low', 'medium', 'high', 'critical']),
          message: z.string(),
        }),
      ),
    })
    .optional(),
  session_id: z.string(),
  created_at: z.number(),
});

export type SkillProposal = z.infer<typeof proposalSchema>;

/** Pending proposals kept at once: an agent in a loop cannot fill the disk. */
export const MAX_PENDING_PROPOSALS = 50;

const ID = /^[a-f0-9-]{36}$/;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export interface ProposalQueue {
  add(proposal: Omit<SkillProposal, 'id' | 'created_at'>): Promise<SkillProposal>;
  list(): Promise<SkillProposal[]>;
  get(id: string): Promise<SkillProposal>;
  /** Drops a proposal (after approval or rejection). */
  remove(id: string): Promise<void>;
}

/**
 * Agent-written skills waiting for a human: one 0600 JSON file per proposal in
 * `{data_dir}/skills-proposals/`, so they survive a restart. Nothing here is ever loaded.
 */
export function createProposalQueue(deps: { dir: string; now: () => number }): ProposalQueue {
  const fileOf = (id: string) => {
    if (!ID.test(id)) throw notFound(`No skill proposal '${id}'`);
    return join(deps.dir, `${id}.json`);
  };

  async function list(): Promise<SkillProposal[]> {
    await ensurePrivateDir(deps.dir, deps.dir);
    const names = (await readdir(deps.dir)).filter((name) => ID.test(name.replace(/\.json$/, '')));
    const proposals: SkillProposal[] = [];
    for (const name of names) {
      // A corrupt or hand-edited file is skipped, not fatal to the whole queue.
      const parsed = proposalSchema.safeParse(
        parseJson(await readFile(join(deps.dir, name), 'utf8')),
      );
      if (parsed.success) proposals.push(parsed.data);
    }
    return proposals.sort((a, b) => a.created_at - b.created_at || a.id.localeCompare(b.id));
  }

  return {
    async add(input) {
      if ((await list()).length >= MAX_PENDING_PROPOSALS)
        throw new HearthError(
          'conflict',
          `${MAX_PENDING_PROPOSALS} skill proposals are already waiting for review`,
        );
      const proposal: SkillProposal = { ...input, id: randomUUID(), created_at: deps.now() };
      await writeFileAtomic(deps.dir, fileOf(proposal.id), JSON.stringify(proposal));
      return proposal;
    },
    list,
    async get(id) {
      const file = fileOf(id);
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch {
        throw notFound(`No skill proposal '${id}'`);
      }
      return proposalSchema.parse(JSON.parse(text));
    },
    remove: (id) => removeInside(deps.dir, fileOf(id)),
  };
}
