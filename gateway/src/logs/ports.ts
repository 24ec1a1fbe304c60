/** The logs area's public face: the area (GET /logs, the live log socket). */
export { logsArea } from './area.ts';
