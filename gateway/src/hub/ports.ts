/**
 * The hub area's public face: the area (skill packages fetched, scanned and installed) and the
 * seams the gateway gives it (host resolution, pinned fetch). Other areas import only this file.
 */
export { hubArea, type HubArea, type HubAreaDeps } from './area.ts';
export { systemResolver, type HostResolver } from './host-resolver.ts';
export { createPinnedFetch, type PinnedFetch } from './pinned-fetch.ts';
