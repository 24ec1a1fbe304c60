import { join } from 'node:path';
import { silentLogger } from '../observability/logger.ts';
import { scanPackage } from '../skills/scanner/scan-package.ts';
import type { SkillIsolation } from '../skills/ports.ts';
import { createSkillStore } from '../skills/store/skill-store.ts';
import { createSkillValidator } from '../skills/validate/validator.ts';
import { createToolRegistry } from '../tools/registry.ts';
import { DEFAULT_FETCH_LIMITS } from './fetch-package.ts';
import { systemResolver } from './host-resolver.ts';
import { createPinnedFetch } from './pinned-fetch.ts';
import { createHubService, type HubService } from './hub-service.ts';

/**
 * The CLI never runs skill code: its stand-in isolation refuses to start a host, so a package
 * installed here is written (validated, scanned) and listed in state `error` for this process
 * only; the manifest on disk says `active` and a gateway loads it when it starts.
 */
const writeOnly: SkillIsolation = {
  description: 'none (written by the CLI, loaded by the gateway)',
  start: () => Promise.reject(new Error('the CLI does not run skills')),
};

/**
 * `hearth hub install|remove` without a running gateway: the same hub service over this
 * machine's skills folder (`{home}/skills`), with the gateway's layer 1 and scanner, for the
 * length of `work`. Downloads go to public hosts only, like the gateway's by default.
 */
export async function withLocalHub<T>(
  home: string,
  work: (hub: HubService) => Promise<T>,
  options: { allowPrivateHosts?: boolean } = {},
): Promise<T> {
  const store = createSkillStore({
    skillsDir: join(home, 'skills'),
    dataDir: join(home, 'skill-data'),
    validate: createSkillValidator(),
    isolation: writeOnly,
    tools: createToolRegistry(),
    logger: silentLogger(),
    now: Date.now,
  });
  try {
    await store.loadAll();
    const hub = createHubService({
      catalog: () => store,
      scan: scanPackage,
      network: {
        fetch: createPinnedFetch(),
        resolve: systemResolver,
        allowPrivateHosts: options.allowPrivateHosts ?? false,
      },
      limits: DEFAULT_FETCH_LIMITS,
      logger: silentLogger(),
    });
    return await work(hub);
  } finally {
    await store.close();
  }
}
