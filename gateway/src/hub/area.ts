import type { Logger } from 'pino';
import type { Area } from '../lifecycle/area.ts';
import type { JudgePackage, SkillCatalog } from '../skills/ports.ts';
import { DEFAULT_FETCH_LIMITS, type HubFetchLimits } from './fetch-package.ts';
import { systemResolver, type HostResolver } from './host-resolver.ts';
import { createPinnedFetch, type PinnedFetch } from './pinned-fetch.ts';
import { createHubService, type HubService } from './hub-service.ts';
import { hubRoutes } from './routes.ts';
import { defineArea } from '../lifecycle/install.ts';
import { createPackageJudge, createSkillValidator, scanPackage } from '../skills/ports.ts';

export interface HubAreaDeps {
  /** The skills catalog; throws 503 "… is starting" until the skills area has opened it. */
  catalog: () => SkillCatalog;
  /** The verdict on a package: layer 1 and the scanner, for installs and `POST /hub/scan`. */
  judge: JudgePackage;
  /** Package downloads over a connection to the checked address (undici by default). */
  fetch?: PinnedFetch;
  /** Host name resolution for the address check (the system's by default). */
  resolve?: HostResolver;
  /** `[security] hub_allow_private_hosts`. */
  allowPrivateHosts: boolean;
  limits?: Partial<HubFetchLimits>;
  logger: Logger;
}

export interface HubArea extends Area {
  readonly hub: HubService;
}

/**
 * The package hub (`/hub/*`): installs code from https: and data: URLs into the skills catalog,
 * which validates it (layer 1), writes it under `{data_dir}/skills/<name>` and registers its
 * tools with the live agent. No start-up phase of its own: it works once the catalog does.
 */
export function hubArea(deps: HubAreaDeps): HubArea {
  const hub = createHubService({
    catalog: deps.catalog,
    judge: deps.judge,
    network: {
      fetch: deps.fetch ?? createPinnedFetch(),
      resolve: deps.resolve ?? systemResolver,
      allowPrivateHosts: deps.allowPrivateHosts,
    },
    limits: { ...DEFAULT_FETCH_LIMITS, ...deps.limits },
    logger: deps.logger,
  });
  return { name: 'hub', routes: hubRoutes(hub), hub };
}

/**
 * Hub downloads: the pinned fetch (undici by default; tests trust their own certificate) and the
 * resolver of the address check (the system's by default; tests map names to addresses).
 */
export interface HubOptions {
  fetch?: PinnedFetch;
  resolve?: HostResolver;
}

export const hub = defineArea(
  'hub',
  (kernel, needs: { skills: { catalog: () => SkillCatalog } }, options: HubOptions | undefined) =>
    hubArea({
      catalog: needs.skills.catalog,
      judge: createPackageJudge({ validate: createSkillValidator(), scan: scanPackage }),
      fetch: options?.fetch,
      resolve: options?.resolve,
      allowPrivateHosts: kernel.config.security.hub_allow_private_hosts,
      logger: kernel.logger,
    }),
);
