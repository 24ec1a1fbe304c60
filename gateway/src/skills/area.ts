import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Area } from '../lifecycle/area.ts';
import { late } from '../lifecycle/late.ts';
import { onFirstUse, type FirstUse } from '../lifecycle/first-use.ts';
import type { ToolRegistry } from '../tools/ports.ts';
import { pluginRoutes } from './plugin-routes.ts';
import type { ScanPackageOrLoad, SkillCatalog, SkillIsolation, ValidateSkill } from './types.ts';
import { createProposalQueue } from './review/proposals.ts';
import { createReviewService, type ReviewService } from './review/review-service.ts';
import { WRITE_SKILL, writeSkillTool } from './review/write-skill-tool.ts';
import { skillRoutes } from './routes.ts';
import { createSkillStore, OVER_LIMIT, type SkillStore } from './store/skill-store.ts';
import { defineArea } from '../lifecycle/install.ts';
import { createSkillFetch } from './host/skill-fetch.ts';
import { createPinnedFetch, type PinnedFetch } from '../http/outbound/pinned-fetch.ts';
import { systemResolver, type HostResolver } from '../http/outbound/resolver.ts';
import { createPackageJudge } from './scanner/judge.ts';
import { createSkillValidator, scanPackage } from './checks.ts';

export interface SkillsAreaDeps {
  /** `{data_dir}`: skills live in `skills/`, their data in `skill-data/`, proposals in `skills-proposals/`. */
  home: string;
  /** The gateway's one registry: skill tools sit beside the built-ins. */
  tools: ToolRegistry;
  /** Layer 1. */
  validate: ValidateSkill;
  /**
   * Layer 3, built on first use (its modules are loaded then, and it probes for bubblewrap and
   * prlimit, two child processes): when a skill host starts, or `/status` first asks (`settle`).
   */
  isolation: () => Promise<SkillIsolation>;
  /** Layer 2, for `POST /plugins`. */
  scan?: ScanPackageOrLoad;
  logger: Logger;
  now: () => number;
}

export interface SkillsArea extends Area {
  /** The catalog the hub installs through; 503 "Skills are starting" before start-up. */
  readonly catalog: () => SkillCatalog;
  readonly store: () => SkillStore;
}

/**
 * Skills and plugins: the store on disk, the trusted writer (`POST /skills`), the agent's
 * `write_skill` proposals and their review, quarantine, and `/plugins`. Skills run in an
 * isolated host, never in the gateway process; their tools join the shared registry.
 */
export function skillsArea(deps: SkillsAreaDeps): SkillsArea {
  const logger = deps.logger.child({ area: 'skills' });
  // Registered at start-up, after the skills on disk: reserved now, so none of them takes it.
  deps.tools.reserve(WRITE_SKILL, 'builtin');
  const store = late<SkillStore>({ name: 'Skills', plural: true });
  const judge = createPackageJudge({ validate: deps.validate, scan: deps.scan ?? scanPackage });
  const review = late<ReviewService>({ name: 'Skills', plural: true });
  let started = false;
  const walls = onFirstUse(deps.isolation);
  const isolation = isolationOnFirstUse(walls);
  return {
    name: 'skills',
    routes: [
      ...skillRoutes({ store: store.get, review: review.get, validate: deps.validate }),
      ...pluginRoutes({ store: store.get, judge }),
    ],
    async start() {
      started = true;
      const opened = createSkillStore({
        skillsDir: join(deps.home, 'skills'),
        dataDir: join(deps.home, 'skill-data'),
        validate: deps.validate,
        isolation,
        tools: deps.tools,
        logger,
        now: deps.now,
      });
      await opened.loadAll();
      store.set(opened);
      review.set(
        createReviewService({
          store: store.get,
          proposals: createProposalQueue({
            dir: join(deps.home, 'skills-proposals'),
            now: deps.now,
          }),
          validate: deps.validate,
          judge,
          logger,
        }),
      );
      deps.tools.register(writeSkillTool(review.get));
    },
    settle: async () => {
      if (started) await walls.get();
    },
    status: (): Record<string, string> => {
      const built = walls.peek();
      if (!started || built === undefined) return {};
      const running = built.running?.();
      return {
        skills:
          running === undefined
            ? built.description
            : `${built.description}; ${running} skill host${running === 1 ? '' : 's'} running`,
        ...skillLimitsStatus(built, store.peek()),
      };
    },
    catalog: store.get,
    store: store.get,
    close: () => store.peek()?.close(),
  };
}

/**
 * The walls as the store sees them, built the first time a skill host starts: a gateway with no
 * skill installed neither loads their modules nor starts a probe process.
 */
function isolationOnFirstUse(walls: FirstUse<SkillIsolation>): SkillIsolation {
  return {
    get description() {
      return walls.peek()?.description ?? 'not probed yet';
    },
    get resources() {
      return walls.peek()?.resources;
    },
    running: () => walls.peek()?.running?.() ?? 0,
    start: async (host) => (await walls.get()).start(host),
  };
}

/**
 * `skill_limits`: the resource limits skill hosts run under (or why they cannot, and skills are
 * refused), and the skills stopped for going over one.
 */
function skillLimitsStatus(
  isolation: SkillIsolation,
  store: SkillStore | undefined,
): Record<string, string> {
  if (isolation.resources === undefined) return {};
  const stopped = (store?.list() ?? [])
    .filter((entry) => entry.load_error?.startsWith(OVER_LIMIT))
    .map((entry) => `${entry.name} (${entry.load_error!.slice(OVER_LIMIT.length)})`);
  return {
    skill_limits:
      stopped.length === 0
        ? isolation.resources
        : `${isolation.resources}; stopped: ${stopped.join('; ')}`,
  };
}

export interface SkillsNeeds {
  tools: { registry: ToolRegistry };
  privacy: {
    /** The audit records what it observes the work make for `source` (`skill:<name>`). */
    attributeEgress: <T>(source: string, work: () => Promise<T>) => Promise<T>;
    recordRefusal: (entry: { source: string; method: string; url: string; reason: string }) => void;
  };
}

/**
 * Skills' network, made by the gateway (host/skill-fetch.ts): the pinned fetch (undici by
 * default; tests trust their own certificate) and the resolver of the address check.
 */
export interface SkillsOptions {
  fetch?: PinnedFetch;
  resolve?: HostResolver;
}

export const skills = defineArea(
  'skills',
  (kernel, needs: SkillsNeeds, options: SkillsOptions | undefined) => {
    const skillFetch = createSkillFetch({
      fetch: options?.fetch ?? createPinnedFetch(),
      resolve: options?.resolve ?? systemResolver,
      attribute: needs.privacy.attributeEgress,
      refused: needs.privacy.recordRefusal,
    });
    return skillsArea({
      home: kernel.paths.home,
      tools: needs.tools.registry,
      validate: createSkillValidator(),
      isolation: async () => {
        const { chooseSkillIsolation } = await import('./host/choose-isolation.ts');
        return chooseSkillIsolation({
          config: kernel.config,
          processEnv: kernel.processEnv,
          secretValues: kernel.secretValues,
          skillFetch,
          logger: kernel.logger,
          onRefused: (limit) =>
            kernel.metrics.extensionInputRefusedTotal.inc({ source: 'skill_host', limit }),
        });
      },
      scan: scanPackage,
      logger: kernel.logger,
      now: kernel.now,
    });
  },
);
