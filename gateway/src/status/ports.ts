/** The status area's public face: the area (GET /status, readiness, metrics). */
export { statusArea } from './area.ts';
