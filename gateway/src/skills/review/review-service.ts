import type { Logger } from 'pino';
import { HearthError, validationError } from '../../errors.ts';
import type { JudgePackage } from '../scanner/judge.ts';
import type { SkillKind, ValidateSkill } from '../types.ts';
import { assertSkillName } from '../store/names.ts';
import {
  describeProblems,
  MAX_SKILL_SOURCE_BYTES,
  type SkillEntry,
  type SkillStore,
} from '../store/skill-store.ts';
import type { ProposalQueue, SkillProposal } from './proposals.ts';

export interface ReviewServiceDeps {
  store: () => SkillStore;
  proposals: ProposalQueue;
  validate: ValidateSkill;
  /** The hub's verdict, shown with the proposal: findings and descriptions for the reviewer. */
  judge?: JudgePackage;
  logger: Logger;
}

export interface ProposeInput {
  name: string;
  code: string;
  kind: SkillKind;
  description: string | null;
  sessionId: string;
}

/**
 * The agent's path: a proposal is validated (layer 1) and queued; only a human's approval
 * writes and loads it, through the same store as a trusted write.
 */
export function createReviewService(deps: ReviewServiceDeps) {
  const { logger } = deps;
  const deciding = new Set<string>();
  return {
    async propose(input: ProposeInput): Promise<SkillProposal> {
      assertSkillName(input.name);
      if (Buffer.byteLength(input.code, 'utf8') > MAX_SKILL_SOURCE_BYTES)
        throw validationError(`code must be at most ${MAX_SKILL_SOURCE_BYTES} bytes`);
      const validation = await deps.validate(input.code, input.kind);
      if (!validation.ok)
        throw validationError(`code rejected: ${describeProblems(validation.problems)}`);
      const verdict = await deps.judge?.(input.code, input.kind);
      const proposal = await deps.proposals.add({
        name: input.name,
        kind: input.kind,
        code: input.code,
        description: input.description,
        tools: validation.tools.map((tool) => tool.name),
        ...(verdict
          ? {
              tool_descriptions: verdict.tool_descriptions,
              scan: { flagged: verdict.flagged, findings: verdict.findings },
            }
          : {}),
        session_id: input.sessionId,
      });
      logger.info(
        { proposal: proposal.id, skill: proposal.name, session_id: input.sessionId },
        'skill proposal queued',
      );
      return proposal;
    },
    pending: () => deps.proposals.list(),
    get: (id: string) => deps.proposals.get(id),
    async approve(id: string): Promise<SkillEntry> {
      const proposal = await deps.proposals.get(id);
      if (deciding.has(id)) throw new HearthError('conflict', `Proposal ${id} is being decided`);
      deciding.add(id);
      try {
        const skill = await deps.store().install({
          name: proposal.name,
          kind: proposal.kind,
          source: proposal.code,
          origin: 'review',
        });
        await deps.proposals.remove(id);
        logger.info(
          { proposal: id, skill: proposal.name, state: skill.state },
          'skill proposal approved',
        );
        return skill;
      } finally {
        deciding.delete(id);
      }
    },
    async reject(id: string): Promise<SkillProposal> {
      const proposal = await deps.proposals.get(id);
      if (deciding.has(id)) throw new HearthError('conflict', `Proposal ${id} is being decided`);
      await deps.proposals.remove(id);
      logger.info({ proposal: id, skill: proposal.name }, 'skill proposal rejected');
      return proposal;
    },
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;
