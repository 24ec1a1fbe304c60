import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS } from '../config/chromium.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { chromiumPath, chromiumSuiteTitle, launchChromium } from '../testing/fakes/chromium.ts';
import { CLIENT_CSP } from './static-pages.ts';
import { axeAudit } from './testing/axe.ts';
import { buildClient } from './testing/build-client.ts';
import { listedViews, openView, SHOT_SIZES, shootViews } from './testing/shoot-views.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG's width and height from its IHDR chunk (undefined when it is not a PNG). */
function pngSize(bytes: Buffer): [number, number] | undefined {
  if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString('latin1', 12, 16) !== 'IHDR')
    return undefined;
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

describe.skipIf(!chromiumPath)(
  chromiumSuiteTitle('web client shell: navigation, drawer, shortcuts, theme, install'),
  { timeout: 120_000 },
  () => {
    let assets: string;
    let bed: ChatTestBed;
    let browser: Browser;
    const problems: string[] = [];

    /** A page in a fresh browser context; CSP refusals and uncaught errors land in `problems`. */
    async function open(
      path = '/',
      options: {
        viewport?: { width: number; height: number };
        colorScheme?: 'light' | 'dark';
      } = {},
    ): Promise<Page> {
      const context = await browser.newContext({
        viewport: options.viewport ?? SHOT_SIZES.desktop,
        colorScheme: options.colorScheme ?? 'light',
      });
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy|Refused/.test(message.text()))
          problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(`${bed.gw.url}${path}`);
      await page.locator('#sidebar a[data-view]').first().waitFor({ state: 'attached' });
      return page;
    }
    const background = (page: Page) =>
      page.evaluate<string>('getComputedStyle(document.body).backgroundColor');

    beforeAll(async () => {
      assets = await buildClient();
      bed = await startChatTestBed(undefined, { webAssetsDir: assets });
      browser = await launchChromium();
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await bed?.close();
      if (assets) await rm(assets, { recursive: true, force: true });
    });

    it('lists every view in grouped navigation and opens each by a click, the view loaded on demand', async () => {
      const page = await open();
      const nav = page.getByRole('navigation', { name: 'Views' });
      for (const group of ['Chat', 'Decide', 'Watch', 'Configure'])
        expect(await nav.getByRole('list', { name: group }).count()).toBe(1);
      const views = await listedViews(page);
      expect(views).toEqual(expect.arrayContaining(['chat', 'approvals', 'status', 'setup']));
      expect(new Set(views).size).toBe(views.length);
      for (const view of views) {
        const link = nav.locator(`a[data-view="${view}"]`);
        await link.click();
        await expect.poll(() => page.evaluate<string>('location.hash')).toBe(`#${view}`);
        await page.locator(`#sidebar a[data-view="${view}"][aria-current="page"]`).waitFor();
        // The view rendered (no loading line left, no load error) and the title names it.
        await expect
          .poll(() =>
            page
              .locator('#main')
              .getByText(/^Loading .*…$/)
              .count(),
          )
          .toBe(0);
        expect(
          await page
            .locator('#main [role="alert"]')
            .filter({ hasText: 'could not be loaded' })
            .count(),
        ).toBe(0);
        expect(await page.title()).toBe(`${(await link.innerText()).trim()} · Hearth`);
      }
      // Only one link is current, and a back navigation returns to the view before.
      expect(await nav.locator('[aria-current="page"]').count()).toBe(1);
      await page.goBack();
      await expect.poll(() => page.evaluate<string>('location.hash')).toBe(`#${views.at(-2)}`);
      // An unknown address is the chat.
      await page.evaluate("location.hash = '#no-such-view'");
      await nav.locator('a[data-view="chat"][aria-current="page"]').waitFor();
      expect(problems).toEqual([]);
      await page.context().close();
    });

    it('keeps the pending-approvals badge on the Approvals link', async () => {
      bed.fake.reset();
      bed.fake.reply(
        { toolCalls: [{ name: 'shell', arguments: { command: 'echo badge' } }] },
        { text: 'done' },
      );
      const page = await open();
      await page.locator('.dot.on').waitFor({ timeout: 20_000 });
      await page.getByLabel('Message').fill('run it');
      await page.getByLabel('Message').press('Enter');
      const link = page.getByRole('link', { name: /^Approvals 1 pending$/ });
      await link.waitFor({ timeout: 20_000 });
      for (const { id } of (await bed.get('/approvals/pending')).body.pending as { id: string }[])
        await bed.post(`/approvals/${id}/deny`, {});
      await page.getByRole('link', { name: 'Approvals', exact: true }).waitFor({ timeout: 15_000 });
      await page.context().close();
    });

    it('goes to views by g and a letter, focuses the field by / and Ctrl+K, never while typing', async () => {
      const page = await open('/#status');
      await page.keyboard.press('g');
      await page.keyboard.press('m');
      await expect.poll(() => page.evaluate<string>('location.hash')).toBe('#memory');
      await page.getByLabel('Search memories').waitFor();
      // `/` focuses the view's field (Memory's search)…
      await page.keyboard.press('/');
      await expect
        .poll(() => page.evaluate<string>('document.activeElement.id'))
        .toBe('memory-query');
      // …and typing there is typing: `g s` stays in the field.
      await page.keyboard.type('gs/?');
      expect(await page.getByLabel('Search memories').inputValue()).toBe('gs/?');
      await expect.poll(() => page.evaluate<string>('location.hash')).toBe('#memory');
      expect(await page.getByRole('dialog').count()).toBe(0);
      // A letter no view has, or one too late, does nothing.
      await page.locator('h1').click();
      await page.keyboard.press('g');
      await page.keyboard.press('q');
      await page.keyboard.press('g');
      await page.waitForTimeout(1_700);
      await page.keyboard.press('s');
      await expect.poll(() => page.evaluate<string>('location.hash')).toBe('#memory');
      // Ctrl+K from a view without a field: the chat's composer.
      await page.keyboard.press('g');
      await page.keyboard.press('s');
      await expect.poll(() => page.evaluate<string>('location.hash')).toBe('#status');
      await page.keyboard.press('Control+k');
      await expect.poll(() => page.evaluate<string>('location.hash')).toBe('#chat');
      await expect.poll(() => page.evaluate<string>('document.activeElement.id')).toBe('message');
      await page.context().close();
    });

    it('shows the shortcuts in a modal dialog on ?, closed by Esc with the focus back', async () => {
      const page = await open('/#status');
      await page.locator('h1').click();
      await page.keyboard.press('?');
      const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await dialog.waitFor();
      expect(await dialog.getByRole('row', { name: /g then s Go to Status/ }).count()).toBe(1);
      expect(await dialog.getByRole('row', { name: /Ctrl\+K/ }).count()).toBe(1);
      // Modal: the focus is inside, and shortcuts do not act under it.
      expect(
        await page.evaluate<boolean>("document.activeElement.closest('dialog') !== null"),
      ).toBe(true);
      await page.keyboard.press('g');
      await page.keyboard.press('m');
      await expect.poll(() => page.evaluate<string>('location.hash')).toBe('#status');
      expect((await axeAudit(page)).violations).toEqual([]);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      // The button in the sidebar opens it too.
      await page.getByRole('button', { name: /Shortcuts/ }).click();
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await expect
        .poll(() => page.evaluate<string>('document.activeElement.textContent'))
        .toMatch(/Shortcuts/);
      await page.context().close();
    });

    it('puts the navigation in a drawer behind a menu button at phone width', async () => {
      const page = await open('/#chat', { viewport: SHOT_SIZES.phone });
      const menu = page.getByRole('button', { name: 'Menu' });
      const memory = page.getByRole('link', { name: 'Memory' });
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      expect(await memory.isVisible()).toBe(false);
      await menu.click();
      await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('true');
      await memory.waitFor();
      // The current view's link has the focus; the drawer fits the phone.
      await expect
        .poll(() => page.evaluate<string>("document.activeElement.dataset.view ?? ''"))
        .toBe('chat');
      const box = await page.locator('#sidebar').boundingBox();
      expect(box!.width).toBeLessThanOrEqual(SHOT_SIZES.phone.width);
      expect((await axeAudit(page)).violations).toEqual([]);
      // A link goes there and closes the drawer.
      await memory.click();
      await page.getByLabel('Search memories').waitFor();
      expect(await memory.isVisible()).toBe(false);
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      // Esc closes it, the focus back on the menu button.
      await menu.click();
      await memory.waitFor();
      await page.keyboard.press('Escape');
      await memory.waitFor({ state: 'hidden' });
      await expect
        .poll(() => page.evaluate<string>('document.activeElement.id'))
        .toBe('menu-button');
      // So does a tap beside it.
      await menu.click();
      await memory.waitFor();
      await page.mouse.click(SHOT_SIZES.phone.width - 10, SHOT_SIZES.phone.height / 2);
      await memory.waitFor({ state: 'hidden' });
      // And the page is never wider than the phone.
      expect(
        await page.evaluate<number>('document.documentElement.scrollWidth'),
      ).toBeLessThanOrEqual(SHOT_SIZES.phone.width);
      expect(problems).toEqual([]);
      await page.context().close();
    });

    it('follows the system theme, and keeps a chosen one across a reload', async () => {
      const page = await open('/#status', { colorScheme: 'dark' });
      const theme = page.getByLabel('Theme');
      expect(await theme.inputValue()).toBe('system');
      expect(await background(page)).toBe('rgb(26, 24, 22)');
      await theme.selectOption('light');
      expect(await background(page)).toBe('rgb(251, 248, 244)');
      expect(await page.evaluate("localStorage.getItem('hearth.theme')")).toBe('light');
      await page.reload();
      await page.getByLabel('Theme').waitFor();
      expect(await page.getByLabel('Theme').inputValue()).toBe('light');
      expect(await background(page)).toBe('rgb(251, 248, 244)');
      await page.getByLabel('Theme').selectOption('dark');
      await page.emulateMedia({ colorScheme: 'light' });
      expect(await background(page)).toBe('rgb(26, 24, 22)');
      // Back to the system's: the stored choice is gone and the page follows the system again.
      await page.getByLabel('Theme').selectOption('system');
      expect(await page.evaluate("localStorage.getItem('hearth.theme')")).toBeNull();
      expect(await background(page)).toBe('rgb(251, 248, 244)');
      // A forged stored value is ignored.
      await page.evaluate("localStorage.setItem('hearth.theme', 'url(x)')");
      await page.reload();
      await page.getByLabel('Theme').waitFor();
      expect(await page.getByLabel('Theme').inputValue()).toBe('system');
      expect(await page.evaluate("document.documentElement.dataset.theme ?? ''")).toBe('');
      await page.context().close();
    });

    it.each(['light', 'dark'] as const)(
      'finds no axe violation with the theme chosen %s (chat, status, settings)',
      async (choice) => {
        // The system says the other scheme: the choice must win everywhere.
        const page = await open('/#chat', { colorScheme: choice === 'light' ? 'dark' : 'light' });
        await page.getByLabel('Theme').selectOption(choice);
        await page.locator('.dot.on').waitFor({ timeout: 20_000 });
        const found: Record<string, string[]> = {};
        let contrasts = 0;
        for (const view of ['chat', 'status', 'settings']) {
          await openView(page, view);
          const audit = await axeAudit(page);
          found[view] = audit.violations;
          contrasts += audit.contrasts;
        }
        expect(found).toEqual({ chat: [], status: [], settings: [] });
        expect(contrasts).toBeGreaterThan(20);
        await page.context().close();
      },
    );

    it('serves a valid manifest and its icons under the CSP, and Chromium finds the app installable', async () => {
      const response = await fetch(`${bed.gw.url}/manifest.webmanifest`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
      expect(response.headers.get('content-security-policy')).toBe(CLIENT_CSP);
      const manifest = (await response.json()) as {
        name: string;
        short_name: string;
        start_url: string;
        scope: string;
        display: string;
        theme_color: string;
        background_color: string;
        icons: { src: string; sizes: string; type: string; purpose?: string }[];
      };
      expect(manifest).toMatchObject({
        name: 'Hearth',
        short_name: 'Hearth',
        start_url: '/',
        scope: '/',
        display: 'standalone',
      });
      expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
      expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/);
      const pngs = manifest.icons.filter((icon) => icon.type === 'image/png');
      expect(pngs.map((icon) => `${icon.sizes} ${icon.purpose}`).sort()).toEqual([
        '192x192 any',
        '512x512 any',
        '512x512 maskable',
      ]);
      for (const icon of pngs) {
        const image = await fetch(`${bed.gw.url}${icon.src}`);
        expect(image.status).toBe(200);
        expect(image.headers.get('content-type')).toBe('image/png');
        const [width, height] = pngSize(Buffer.from(await image.arrayBuffer())) ?? [];
        expect(`${width}x${height}`).toBe(icon.sizes);
      }
      // Chromium's own view, in a profile on disk (an incognito one is never installable): the
      // manifest parses with no error, the app is installable, and the service worker still
      // registers and activates under the CSP.
      const profile = await mkdtemp(join(tmpdir(), 'hearth-profile-'));
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: chromiumPath,
        headless: true,
        args: [...CHROMIUM_ARGS],
      });
      try {
        const page = context.pages()[0] ?? (await context.newPage());
        page.on('pageerror', (error) => problems.push(error.message));
        await page.goto(`${bed.gw.url}/#chat`);
        const cdp = await context.newCDPSession(page);
        const parsed = (await cdp.send('Page.getAppManifest')) as {
          errors: { message: string }[];
          url: string;
        };
        expect(parsed.url).toBe(`${bed.gw.url}/manifest.webmanifest`);
        expect(parsed.errors).toEqual([]);
        await expect
          .poll(async () => {
            const result = (await cdp.send('Page.getInstallabilityErrors')) as {
              installabilityErrors: { errorId: string }[];
            };
            return result.installabilityErrors.map((e) => e.errorId);
          })
          .toEqual([]);
        const state = await page.evaluate<string>(`(async () => {
          const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
          await navigator.serviceWorker.ready;
          return registration.active ? registration.active.state : 'none';
        })()`);
        expect(state).toMatch(/^activat(ing|ed)$/);
        // The control: the same page with a manifest that has no usable icon is not installable.
        await context.route('**/manifest.webmanifest', (route) =>
          route.fulfill({
            contentType: 'application/manifest+json',
            body: JSON.stringify({ name: 'Hearth', start_url: '/', display: 'standalone' }),
          }),
        );
        await page.reload();
        await expect
          .poll(async () => {
            const result = (await cdp.send('Page.getInstallabilityErrors')) as {
              installabilityErrors: { errorId: string }[];
            };
            return result.installabilityErrors.length;
          })
          .toBeGreaterThan(0);
      } finally {
        await context.close();
        await rm(profile, { recursive: true, force: true });
      }
      expect(problems).toEqual([]);
    });

    it('shoots every view the navigation lists (what npm run screenshots does)', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'hearth-shots-'));
      try {
        const paths = await shootViews(browser, bed.gw.url, dir, {
          sizes: ['phone'],
          schemes: ['dark'],
        });
        const page = await open();
        const views = await listedViews(page);
        await page.context().close();
        expect(views).toContain('setup');
        expect((await readdir(dir)).sort()).toEqual(views.map((v) => `${v}-phone-dark.png`).sort());
        expect(paths).toHaveLength(views.length);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  },
);
