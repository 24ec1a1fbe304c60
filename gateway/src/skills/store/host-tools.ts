import type { Logger } from 'pino';
import type { ToolContext, ToolRegistry } from '../../tools/ports.ts';
import type { HostToolCall, SkillCapability } from '../types.ts';

export interface HostToolsInput {
  skill: string;
  /** What the skill declared (its manifest's `capabilities`). */
  capabilities: readonly SkillCapability[];
  tools: ToolRegistry;
  /** The turn that called the skill's tool: the gate asks in its session. */
  context: ToolContext;
  logger: Logger;
}

/**
 * What a skill's `shell()` / `browser()` reach: the gateway's own built-in tool of that name
 * from the one registry, run with the turn's context, so the approval gate (pending approval,
 * approve/deny/expire, the allowlist), the executor, the sanitised environment and the privacy
 * audit apply exactly as to the model's own calls. The command runs where the shell tool runs
 * commands, never inside the skill's walls. A capability the skill did not declare, or a tool
 * the gateway does not have, is refused before anything runs.
 */
export function hostToolsFor(input: HostToolsInput): HostToolCall {
  const { skill, capabilities, tools, context, logger } = input;
  return async (method, params) => {
    const declared = capabilities.find((capability) => capability === method);
    if (!declared) {
      throw new Error(
        `skill ${skill} did not declare the ${method.slice(0, 64) || '(unnamed)'} capability` +
          ` (export const capabilities = ['shell'] or ['browser'])`,
      );
    }
    const tool = tools.get(declared);
    if (!tool || tool.source !== 'builtin')
      throw new Error(`the gateway has no ${declared} tool enabled`);
    logger.info({ skill, tool: declared, session: context.sessionId }, 'skill asked for a tool');
    // The gate's notice and pending record say which skill asks.
    return tool.execute({ ...context, requester: `skill ${skill}` }, params);
  };
}
