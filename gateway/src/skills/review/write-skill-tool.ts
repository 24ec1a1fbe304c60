import type { Tool } from '../../tools/ports.ts';
import { isHearthError } from '../../errors.ts';
import type { ReviewService } from './review-service.ts';

/** The built-in's name, reserved by the skills area's installer. */
export const WRITE_SKILL = 'write_skill';

/**
 * The agent's `write_skill` tool: validates the code and queues a proposal. Nothing is
 * written or loaded until a human approves it; a rejection by layer 1 comes back as the
 * tool's answer, naming the construct and the line.
 */
export function writeSkillTool(review: () => ReviewService): Tool {
  return {
    name: WRITE_SKILL,
    source: 'builtin',
    description:
      'Propose a skill: an ES module; each exported function (with a JSDoc comment) becomes tool <skill>_<function>. Loaded once a human approves.',
    parameters: {
      type: 'object',
      properties: {
        name: {
          type: 'string',
          description: 'Letters, digits, _, -; a letter first; max 32',
        },
        code: {
          type: 'string',
          description: 'Full source of skill.mjs (skill.py if kind is py)',
        },
        description: { type: 'string', description: 'For the reviewer' },
        kind: { type: 'string', enum: ['mjs', 'py'] },
      },
      required: ['name', 'code'],
    },
    async execute(context, args) {
      const { name, code, description, kind } = args;
      if (typeof name !== 'string' || typeof code !== 'string')
        return 'write_skill needs string arguments name and code.';
      try {
        const proposal = await review().propose({
          name,
          code,
          kind: kind === 'py' ? 'py' : 'mjs',
          description: typeof description === 'string' ? description.slice(0, 2000) : null,
          sessionId: context.sessionId,
        });
        const tools = proposal.tools.map((tool) => `${name}_${tool}`).join(', ') || 'none';
        return `Skill proposal ${proposal.id} queued for '${name}' (tools: ${tools}). Nothing is written or loaded until a human approves it: hearth skills review approve ${proposal.id}`;
      } catch (error) {
        if (isHearthError(error)) return `The skill was not queued: ${error.message}`;
        throw error;
      }
    },
  };
}
