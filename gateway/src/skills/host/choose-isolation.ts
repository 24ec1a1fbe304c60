import type { HearthConfig } from '../../config/schema.ts';
import type { Logger } from '../../observability/logger.ts';
import type { SkillIsolation } from '../types.ts';
import { createSkillIsolation } from './isolation.ts';
import { resourceLimitsOf } from '../../../../common/sandbox/resource-limits.ts';
import { createSidecarSkillIsolation } from './sidecar-isolation.ts';
import type { SkillFetch } from './skill-fetch.ts';
import type { SkillInputLimit } from './skill-process.ts';

export interface ChooseIsolationDeps {
  config: HearthConfig;
  processEnv: Readonly<Record<string, string | undefined>>;
  /** Every configured secret value: none reaches a skill, by name or by value. */
  secretValues: () => string[];
  /** The gateway's fetch for skills (skill-fetch.ts): no skill host has a network of its own. */
  skillFetch: SkillFetch;
  logger: Logger;
  /** Told each time a host's input is refused over a cap (skill-process.ts; a counter). */
  onRefused?: (limit: SkillInputLimit) => void;
}

/** Where skill hosts run, and the sidecar's address and token when there. */
export function skillHostPlace(
  config: HearthConfig,
): { place: 'local' } | { place: 'sidecar'; url: string; token: string } {
  const { security, skills } = config;
  const place =
    skills.host === 'auto' ? (security.executor === 'sandbox' ? 'sidecar' : 'local') : skills.host;
  if (place === 'local') return { place };
  return {
    place,
    url: skills.sidecar_url || security.sandbox_url,
    token: skills.sidecar_token || security.sandbox_token,
  };
}

/**
 * Where skill hosts run: `[skills] host` (`sidecar`: the sandbox-executor sidecar at
 * `sidecar_url`, over TCP or a Unix socket; `local`: this machine inside bubblewrap, refused
 * where bubblewrap cannot build a sandbox). `auto` (the default) keeps `[security] executor =
 * "sandbox"` meaning the sidecar at `sandbox_url`. An idle host is stopped (its memory returned) and
 * restarted by the next call.
 */
export function chooseSkillIsolation(deps: ChooseIsolationDeps): SkillIsolation {
  const { skills } = deps.config;
  const limits = { idleMs: skills.host_idle_seconds * 1000 };
  const resources = resourceLimitsOf(skills);
  const where = skillHostPlace(deps.config);
  return where.place === 'sidecar'
    ? createSidecarSkillIsolation({
        url: where.url,
        token: () => where.token,
        logger: deps.logger,
        limits,
        skillFetch: deps.skillFetch,
        onRefused: deps.onRefused,
      })
    : createSkillIsolation({
        executor: 'local',
        logger: deps.logger,
        env: deps.processEnv,
        secretValues: deps.secretValues(),
        limits,
        fetch: deps.skillFetch,
        resources,
        onRefused: deps.onRefused,
      });
}
