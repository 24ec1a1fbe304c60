/**
 * The sidebar lists stored conversations too (GET /sessions?stored=true): after the gateway
 * restarts on the same state directory, a conversation that is no longer live is still listed
 * and opens with its history, in a real browser.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, chromiumSuiteTitle, launchChromium } from '../testing/fakes/chromium.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { buildClient } from './testing/build-client.ts';

describe.skipIf(!chromiumPath)(
  chromiumSuiteTitle('web client conversations: listed after a gateway restart'),
  { timeout: 180_000 },
  () => {
    let assets: string;
    let home: string;
    let bed: ChatTestBed;
    let browser: Browser;
    let page: Page;
    const problems: string[] = [];

    const open = async () => {
      await page.goto(bed.gw.url);
      await page.locator('.dot.on').waitFor({ timeout: 20_000 });
    };

    beforeAll(async () => {
      assets = await buildClient();
      home = await mkdtemp(join(tmpdir(), 'hearth-web-restart-'));
      bed = await startChatTestBed(undefined, { webAssetsDir: assets, home });
      browser = await launchChromium();
      page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      page.on('pageerror', (error) => problems.push(error.message));
      await open();
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await bed?.close();
      if (assets) await rm(assets, { recursive: true, force: true });
    });

    const list = () => page.getByRole('list', { name: 'Conversation list' });
    const row = (title: RegExp) => list().locator('.session-open', { hasText: title });

    it('still lists a conversation, and opens its history, after the gateway restarts', async () => {
      bed.fake.reply({ text: 'Two coats of linseed.' });
      await page.getByLabel('Message').fill('How do I paint the shed?');
      await page.getByLabel('Message').press('Enter');
      await page.locator('.message.assistant', { hasText: 'linseed' }).waitFor({ timeout: 20_000 });
      await row(/How do I paint the shed/).waitFor({ timeout: 10_000 });
      const sessionId = String(await page.evaluate("localStorage.getItem('hearth.session_id')"));

      // The gateway alone: the bed's close would delete the state directory.
      await bed.gw.gateway.close();
      await bed.fake.close();
      bed = await startChatTestBed(undefined, { webAssetsDir: assets, home });
      expect(
        ((await bed.get('/sessions')).body.sessions as { id: string }[]).map((s) => s.id),
      ).not.toContain(sessionId);

      await open();
      await row(/How do I paint the shed/).waitFor({ timeout: 10_000 });
      await page.getByLabel('Search conversations').fill('LINSEED');
      await expect.poll(() => list().getByRole('listitem').count(), { timeout: 10_000 }).toBe(1);
      await row(/How do I paint the shed/).click();
      await page.locator('.message.assistant', { hasText: 'Two coats of linseed.' }).waitFor();
      expect(problems).toEqual([]);
    });
  },
);
