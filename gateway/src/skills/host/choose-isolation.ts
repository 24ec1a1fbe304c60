import type { HearthConfig } from '../../config/schema.ts';
import type { Logger } from '../../observability/logger.ts';
import type { SkillIsolation } from '../types.ts';
import { createSkillIsolation } from './isolation.ts';
import { createSidecarSkillIsolation } from './sidecar-isolation.ts';
import type { SkillFetch } from './skill-fetch.ts';

export interface ChooseIsolationDeps {
  config: HearthConfig;
  processEnv: Readonly<Record<string, string | undefined>>;
  /** Every configured secret value: none reaches a skill, by name or by value. */
  secretValues: () => string[];
  /** The gateway's fetch for skills (skill-fetch.ts): no skill host has a network of its own. */
  skillFetch: SkillFetch;
  logger: Logger;
}

/**
 * Where skill hosts run: the sandbox sidecar's hosts with `[security] executor = "sandbox"`,
 * otherwise local hosts (bubblewrap where it works, the permission model always). An idle host
 * is stopped (its memory returned) and restarted by the next call.
 */
export function chooseSkillIsolation(deps: ChooseIsolationDeps): SkillIsolation {
  const { security, skills } = deps.config;
  const limits = { idleMs: skills.host_idle_seconds * 1000 };
  return security.executor === 'sandbox'
    ? createSidecarSkillIsolation({
        url: security.sandbox_url,
        token: () => security.sandbox_token,
        logger: deps.logger,
        limits,
        skillFetch: deps.skillFetch,
      })
    : createSkillIsolation({
        executor: security.executor,
        logger: deps.logger,
        env: deps.processEnv,
        secretValues: deps.secretValues(),
        limits,
        fetch: deps.skillFetch,
      });
}
