import type { Area } from '../lifecycle/area.ts';
import { webClientPages, type WebClientPages } from './static-pages.ts';
import { defineArea } from '../lifecycle/install.ts';
import { defaultWebAssetsDir } from './assets-dir.ts';

export interface WebClientArea extends Area {
  readonly pages: WebClientPages;
}

/**
 * The browser client at `/` (the `web` workspace's build). Its files need no API key — the
 * page asks for the key and sends it on every request and socket; `/api/v1/status` shows
 * `web_client: built` or `not built`.
 */
export function webClientArea(deps: { assetsDir: string | undefined }): WebClientArea {
  const pages = webClientPages(deps.assetsDir);
  let built = false;
  return {
    name: 'web-client',
    pages,
    async prepare() {
      built = await pages.load();
    },
    status: () => ({ web_client: built ? 'built' : 'not built' }),
  };
}

/** The built web client served at `/` (default: the `web` workspace's `dist/`). */
export interface WebClientOptions {
  assetsDir?: string;
}

export const webClient = defineArea(
  'webClient',
  (_kernel, _needs: object, options: WebClientOptions | undefined) =>
    webClientArea({
      assetsDir: options?.assetsDir ?? defaultWebAssetsDir(),
    }),
);
