/** The web-client area's public face: the area serving the browser client and where it is built. */
export { webClientArea, type WebClientArea } from './area.ts';
export { defaultWebAssetsDir } from './assets-dir.ts';
