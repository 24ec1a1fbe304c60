import { readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { chromiumPath, chromiumSuiteTitle, launchChromium } from '../testing/fakes/chromium.ts';
import { startTestGateway } from '../testing/gateway/test-gateway.ts';
import { buildClient } from './testing/build-client.ts';

/** axe-core's browser build, evaluated in the page (no CDN, no inline script tag: the CSP holds). */
const AXE_SOURCE = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** WCAG 2.x A and AA, and axe's best practices that are cheap to keep (landmarks, headings). */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

interface Violation {
  id: string;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** Nodes whose text contrast axe measured, across the audits (it must not be zero). */
let contrastChecked = 0;

/** axe's violations on the page as `rule: selector — why` lines. */
async function audit(page: Page): Promise<string[]> {
  if (!(await page.evaluate("typeof window.axe === 'object'"))) {
    await page.evaluate(await AXE_SOURCE);
  }
  const result = await page.evaluate<{ violations: Violation[]; passes: Violation[] }>(
    `axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(TAGS)} }, iframes: false })`,
  );
  contrastChecked += result.passes.find((p) => p.id === 'color-contrast')?.nodes.length ?? 0;
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} — ${n.failureSummary ?? v.help}`),
  );
}

describe.skipIf(!chromiumPath)(
  chromiumSuiteTitle('web client accessibility: axe-core in every view, light and dark'),
  { timeout: 180_000 },
  () => {
    let assets: string;
    let bed: ChatTestBed;
    let browser: Browser;
    beforeAll(async () => {
      assets = await buildClient();
      bed = await startChatTestBed(undefined, { webAssetsDir: assets });
      browser = await launchChromium();
      // Something in every view: a conversation, a pending approval, canvas blocks.
      bed.fake.reply({ text: 'A reply with `code`, **bold** and a [link](https://example.org).' });
      expect((await bed.post('/chat', { message: 'hello', session_id: 'a11y' })).status).toBe(200);
      await bed.post('/canvas/render', { type: 'markdown', content: '## Plan\n\n- rest' });
      await bed.post('/canvas/render', { type: 'code', content: 'print(1)', language: 'python' });
      await bed.post('/canvas/render', {
        type: 'chart',
        content: { type: 'bar', labels: ['a', 'b'], values: [1, 2] },
      });
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await bed?.close();
      if (assets) await rm(assets, { recursive: true, force: true });
    });

    it.each([
      ['light', { width: 1280, height: 800 }],
      ['dark', { width: 390, height: 844 }],
    ] as const)(
      'finds no contrast or other WCAG AA violation in any view (%s, %o)',
      async (colorScheme, viewport) => {
        bed.fake.reset();
        bed.fake.reply(
          { toolCalls: [{ name: 'shell', arguments: { command: `echo ${colorScheme}` } }] },
          { text: 'done' },
        );
        const context = await browser.newContext({ colorScheme, viewport });
        const page = await context.newPage();
        await page.goto(bed.gw.url);
        // The theme follows the system: the page's background is the scheme's.
        expect(await page.evaluate('getComputedStyle(document.body).backgroundColor')).toBe(
          colorScheme === 'dark' ? 'rgb(26, 24, 22)' : 'rgb(251, 248, 244)',
        );
        await expect.poll(() => page.locator('.dot.on').count(), { timeout: 20_000 }).toBe(1);
        await page.getByLabel('Message').fill('run echo');
        await page.getByLabel('Message').press('Enter');
        await page.locator('.message.approval .approval').waitFor({ timeout: 20_000 });
        const found: Record<string, string[]> = {};
        found.chat = await audit(page);
        const waits: Record<string, () => Promise<unknown>> = {
          approvals: () => page.locator('.approval').first().waitFor(),
          canvas: () => page.getByRole('heading', { name: 'Plan' }).waitFor(),
          status: async () => {
            await page
              .getByRole('row', { name: /canvas/ })
              .first()
              .waitFor();
            // A fallback's warning colour too (this bed has none of its own).
            await page.evaluate(`{
              const cell = document.querySelector('td');
              cell.className = 'warn';
              cell.textContent = 'memory (redis unreachable)';
            }`);
          },
          memory: () => page.getByLabel('Search memories').waitFor(),
          settings: () =>
            page.getByRole('button', { name: /Notify me|Turn notifications/ }).waitFor(),
          setup: () => page.getByText(/^Ready: /).waitFor(),
        };
        for (const [view, ready] of Object.entries(waits)) {
          // At phone width the views' links are in the drawer behind the menu button.
          const menu = page.getByRole('button', { name: 'Menu' });
          if (await menu.isVisible()) await menu.click();
          await page.getByRole('link', { name: new RegExp(`^${view}`, 'i') }).click();
          await ready();
          found[view] = await audit(page);
        }
        // Leave nothing pending for the other scheme's run.
        for (const { id } of (await bed.get('/approvals/pending')).body.pending as { id: string }[])
          await bed.post(`/approvals/${id}/deny`, {});
        await context.close();
        expect(contrastChecked).toBeGreaterThan(50);
        expect(found).toEqual({
          chat: [],
          approvals: [],
          canvas: [],
          status: [],
          memory: [],
          settings: [],
          setup: [],
        });
      },
    );

    it('finds no violation in the API key dialog, with its error shown, light and dark', async () => {
      const keyed = await startTestGateway({
        config: { gateway: { api_key: 'a11y-key' } },
        webAssetsDir: assets,
      });
      try {
        await keyed.gateway.whenReady();
        for (const colorScheme of ['light', 'dark'] as const) {
          const context = await browser.newContext({ colorScheme });
          const page = await context.newPage();
          await page.goto(keyed.url);
          await page.getByLabel('API key').fill('wrong');
          await page.getByRole('button', { name: 'Unlock' }).click();
          await page.getByRole('alert').filter({ hasText: 'not accepted' }).waitFor();
          expect({ [colorScheme]: await audit(page) }).toEqual({ [colorScheme]: [] });
          await context.close();
        }
      } finally {
        await keyed.close();
      }
    });

    it('finds no violation on a first run: the set-up page and Status while no model can answer', async () => {
      const fresh = await startTestGateway({
        // Nothing listens at this runtime address (port 9 is discard), and no key is set.
        config: { models: { ollama_base_url: 'http://127.0.0.1:9' } },
        webAssetsDir: assets,
      });
      try {
        await fresh.gateway.whenReady();
        for (const colorScheme of ['light', 'dark'] as const) {
          const context = await browser.newContext({ colorScheme });
          const page = await context.newPage();
          await page.goto(fresh.url);
          await page.getByText('No model can answer yet.').waitFor({ timeout: 20_000 });
          await page.getByLabel('Provider').selectOption('azure');
          const setup = await audit(page);
          await page.getByRole('link', { name: /^status/i }).click();
          await page.getByRole('link', { name: 'Open the set-up page' }).waitFor();
          const status = await audit(page);
          expect({ [colorScheme]: { setup, status } }).toEqual({
            [colorScheme]: { setup: [], status: [] },
          });
          await context.close();
        }
      } finally {
        await fresh.close();
      }
    });

    it('sees a contrast failure when there is one (the audit is not blind)', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${bed.gw.url}/#status`);
      await page
        .getByRole('row', { name: /canvas/ })
        .first()
        .waitFor();
      await page.evaluate(`{
        const cell = document.querySelector('td');
        cell.style.color = '#9a9a9a';
        cell.style.background = '#b0b0b0';
      }`);
      expect((await audit(page)).filter((line) => line.startsWith('color-contrast:'))).toHaveLength(
        1,
      );
      await context.close();
    });
  },
);
