import type { Router } from 'express';

/**
 * Pages an area serves outside the JSON API (the web client's files, a canvas block's sandbox
 * page). They pass the `Host` check like everything else; `isPublic` names, exactly, the raw
 * paths that need no API key (a browser loading a page or an iframe cannot send one).
 */
export interface PublicPages {
  isPublic(rawPath: string): boolean;
  router: Router;
}
