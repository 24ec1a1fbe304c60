import type { Area } from '../lifecycle/area.ts';
import { apiStatusRoutes, rootStatusRoutes, type StatusRouteDeps } from './routes.ts';

/** `/health`, `/ready`, `/api/v1/status` and the metrics, over what every area reports. */
export function statusArea(deps: StatusRouteDeps): Area {
  return {
    name: 'status',
    rootRoutes: rootStatusRoutes(deps),
    routes: apiStatusRoutes(deps),
  };
}
