import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';

/** The sizes every view is shot at. */
export const SHOT_SIZES = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;
export const SHOT_SCHEMES = ['light', 'dark'] as const;

/** The views the page's navigation lists (it is built from web/src/views/registry.ts). */
export function listedViews(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(
    `[...document.querySelectorAll('#sidebar a[data-view]')].map((link) => link.dataset.view)`,
  );
}

/** Opens a view by its address and waits until it has loaded and settled. */
export async function openView(page: Page, view: string): Promise<void> {
  await page.evaluate(`location.hash = ${JSON.stringify(`#${view}`)}`);
  await page.locator(`#sidebar a[data-view="${view}"][aria-current="page"]`).waitFor({
    state: 'attached',
  });
  await page
    .locator('#main')
    .getByRole('status')
    .filter({ hasText: /^Loading .*…$/ })
    .waitFor({ state: 'detached' });
  // The view's own requests (status, settings, memory) answer within this on a test bed.
  await page.waitForTimeout(500);
}

export interface ShootOptions {
  sizes?: (keyof typeof SHOT_SIZES)[];
  schemes?: (typeof SHOT_SCHEMES)[number][];
  /** Run once per page before its views are shot (say, send a chat message). */
  prepare?: (page: Page) => Promise<void>;
}

/**
 * Shoots every view the navigation lists, at each size and colour scheme, into `outDir` as
 * `<view>-<size>-<scheme>.png`; returns the files' paths.
 */
export async function shootViews(
  browser: Browser,
  url: string,
  outDir: string,
  options: ShootOptions = {},
): Promise<string[]> {
  const paths: string[] = [];
  for (const scheme of options.schemes ?? SHOT_SCHEMES) {
    for (const size of options.sizes ?? (Object.keys(SHOT_SIZES) as (keyof typeof SHOT_SIZES)[])) {
      const context = await browser.newContext({ viewport: SHOT_SIZES[size], colorScheme: scheme });
      try {
        const page = await context.newPage();
        await page.goto(`${url}/#chat`);
        await page.locator('#sidebar a[data-view]').first().waitFor({ state: 'attached' });
        await options.prepare?.(page);
        for (const view of await listedViews(page)) {
          await openView(page, view);
          const path = join(outDir, `${view}-${size}-${scheme}.png`);
          await page.screenshot({ path });
          paths.push(path);
        }
      } finally {
        await context.close();
      }
    }
  }
  return paths;
}
