import { defineRoute, type AnyRoute } from '../http/route.ts';
import type { HubService } from './hub-service.ts';
import {
  enabledBody,
  formBInstallBody,
  installBody,
  installedResponse,
  nameParams,
  packageRecord,
  packagesResponse,
  removedResponse,
  scanBody,
  scanResponse,
  searchQuery,
  searchResponse,
  statusResponse,
} from './schemas.ts';

/**
 * The hub's REST routes, relative to `/api/v1`. The fixed paths come before `/hub/{name}`,
 * and those words are reserved: no package can be named `status` or `search`.
 */
export function hubRoutes(hub: HubService): AnyRoute[] {
  const tags = ['hub'];
  return [
    defineRoute({
      method: 'get',
      path: '/hub/packages',
      summary: 'Installed hub packages',
      tags,
      response: packagesResponse,
      handler: () =>
        hub.available()
          ? { available: true, packages: hub.list() }
          : { available: false, packages: [] },
    }),
    defineRoute({
      method: 'post',
      path: '/hub/packages',
      summary:
        'Installs a package from an https: or data: URL: checksum, scan (force overrides), layer-1 validation',
      tags,
      body: installBody,
      response: installedResponse,
      handler: ({ body }) => hub.install(body),
    }),
    defineRoute({
      method: 'post',
      path: '/hub/install',
      summary: 'Installs a package (form B: name and url)',
      tags,
      body: formBInstallBody,
      response: installedResponse,
      handler: ({ body }) => hub.install(body),
    }),
    defineRoute({
      method: 'get',
      path: '/hub/search',
      summary: 'Searches the installed packages by name and tag (there is no remote catalogue)',
      tags,
      query: searchQuery,
      response: searchResponse,
      handler: ({ query }) => {
        const packages = hub.search(query.q);
        return { query: query.q, packages, count: packages.length };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/hub/scan',
      summary:
        'The verdict an install of this code would reach (layer 1 and the scanner), without installing it',
      tags,
      body: scanBody,
      response: scanResponse,
      handler: ({ body }) => hub.scan(body.code, body.kind),
    }),
    defineRoute({
      method: 'get',
      path: '/hub/status',
      summary: 'How many packages are installed and enabled',
      tags,
      response: statusResponse,
      handler: () =>
        hub.available()
          ? { available: true, ...hub.status() }
          : { available: false, total: 0, enabled: 0 },
    }),
    defineRoute({
      method: 'get',
      path: '/hub/{name}',
      summary: 'One installed package',
      tags,
      params: nameParams,
      response: packageRecord,
      handler: ({ params }) => hub.get(params.name),
    }),
    defineRoute({
      method: 'patch',
      path: '/hub/{name}',
      summary: 'Enables or disables a package (its tools come and go with it)',
      tags,
      params: nameParams,
      body: enabledBody,
      response: packageRecord,
      handler: ({ params, body }) => hub.setEnabled(params.name, body.enabled),
    }),
    defineRoute({
      method: 'delete',
      path: '/hub/{name}',
      summary: 'Uninstalls a package',
      tags,
      params: nameParams,
      response: removedResponse,
      handler: async ({ params }) => {
        await hub.remove(params.name);
        return { name: params.name, removed: true as const };
      },
    }),
  ];
}
