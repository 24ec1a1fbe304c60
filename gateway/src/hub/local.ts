import { silentLogger } from '../observability/logger.ts';
import {
  createPackageJudge,
  createSkillValidator,
  scanPackage,
  withLocalSkillStore,
} from '../skills/ports.ts';
import { DEFAULT_FETCH_LIMITS } from './fetch-package.ts';
import { systemResolver } from './host-resolver.ts';
import { createPinnedFetch } from './pinned-fetch.ts';
import { createHubService, type HubService } from './hub-service.ts';

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
  return withLocalSkillStore(home, (store) =>
    work(
      createHubService({
        catalog: () => store,
        judge: createPackageJudge({ validate: createSkillValidator(), scan: scanPackage }),
        network: {
          fetch: createPinnedFetch(),
          resolve: systemResolver,
          allowPrivateHosts: options.allowPrivateHosts ?? false,
        },
        limits: DEFAULT_FETCH_LIMITS,
        logger: silentLogger(),
      }),
    ),
  );
}
