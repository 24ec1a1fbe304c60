import type { HearthConfig } from '../../config/schema.ts';
import type { Logger } from '../../observability/logger.ts';
import type { SkillIsolation } from '../types.ts';
import { createSkillIsolation } from './isolation.ts';
import { resourceLimitsOf } from './resource-limits.ts';
import { createSidecarSkillIsolation } from './sidecar-isolation.ts';

export interface ChooseIsolationDeps {
  config: HearthConfig;
  processEnv: Readonly<Record<string, string | undefined>>;
  /** Every configured secret value: none reaches a skill, by name or by value. */
  secretValues: () => string[];
  /** Skills granted network access report their requests to the privacy audit. */
  recordRequest: (method: string, url: string) => void;
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
  const resources = resourceLimitsOf(skills);
  const onRequest = (_skill: string, request: { method: string; url: string }) =>
    deps.recordRequest(request.method, request.url);
  return security.executor === 'sandbox'
    ? createSidecarSkillIsolation({
        url: security.sandbox_url,
        token: () => security.sandbox_token,
        logger: deps.logger,
        limits,
        onRequest,
      })
    : createSkillIsolation({
        executor: security.executor,
        logger: deps.logger,
        env: deps.processEnv,
        secretValues: deps.secretValues(),
        limits,
        onRequest,
        resources,
      });
}
