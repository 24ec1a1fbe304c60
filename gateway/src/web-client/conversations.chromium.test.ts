/**
 * The conversations sidebar in Chromium against a real gateway and the fake LLM: two
 * conversations, switching, rename, search, delete, a reload that keeps the history, stopping a
 * slow reply, edit and resend; axe-core finds nothing in the new UI (desktop and phone).
 */
import { readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, chromiumSuiteTitle, launchChromium } from '../testing/fakes/chromium.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { buildClient } from './testing/build-client.ts';

const AXE_SOURCE = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

async function audit(page: Page): Promise<string[]> {
  if (!(await page.evaluate("typeof window.axe === 'object'")))
    await page.evaluate(await AXE_SOURCE);
  const result = await page.evaluate<{
    violations: { id: string; help: string; nodes: { target: string[] }[] }[];
  }>(
    `axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(TAGS)} }, iframes: false })`,
  );
  return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

type Stored = { messages: { role: string; text: string }[] };

describe.skipIf(!chromiumPath)(
  chromiumSuiteTitle('web client conversations: sidebar, history, stop, edit and resend'),
  { timeout: 180_000 },
  () => {
    let assets: string;
    let bed: ChatTestBed;
    let browser: Browser;
    let page: Page;
    const problems: string[] = [];

    beforeAll(async () => {
      assets = await buildClient();
      bed = await startChatTestBed(undefined, { webAssetsDir: assets });
      browser = await launchChromium();
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      page = await context.newPage();
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy|Refused/.test(message.text()))
          problems.push(message.text());
      });
      await page.goto(bed.gw.url);
      await page.locator('.dot.on').waitFor({ timeout: 20_000 });
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await bed?.close();
      if (assets) await rm(assets, { recursive: true, force: true });
    });

    const list = () => page.getByRole('list', { name: 'Conversation list' });
    /** A conversation's button in the list (the one that opens it). */
    const row = (title: RegExp) => list().locator('.session-open', { hasText: title });

    async function say(text: string, reply: string): Promise<void> {
      bed.fake.reply({ text: reply });
      await page.getByLabel('Message').fill(text);
      await page.getByLabel('Message').press('Enter');
      await page.locator('.message.assistant', { hasText: reply }).waitFor({ timeout: 20_000 });
    }

    it('keeps two conversations apart and switches between them', async () => {
      await say('Plan my garden beds', 'Tomatoes by the wall.');
      // This browser's own session: named by its first reply and listed with its title.
      await row(/Plan my garden beds/).waitFor({ timeout: 10_000 });
      const first = String(await page.evaluate("localStorage.getItem('hearth.session_id')"));
      expect(first).toMatch(/^web-/);

      await page.getByRole('button', { name: 'New conversation' }).click();
      await expect.poll(() => page.locator('.message').count()).toBe(0);
      await say('Which bike should I buy?', 'A steel touring frame.');
      await row(/Which bike should I buy/).waitFor({ timeout: 10_000 });
      const second = String(await page.evaluate("localStorage.getItem('hearth.session_id')"));
      expect(second).not.toBe(first);
      // The gateway holds each exchange in its own session.
      const stored = (await bed.get(`/sessions/${second}/messages`)).body as unknown as Stored;
      expect(stored.messages.map((m) => m.text)).toEqual([
        'Which bike should I buy?',
        'A steel touring frame.',
      ]);

      await row(/Plan my garden beds/).click();
      await page.locator('.message.assistant', { hasText: 'Tomatoes' }).waitFor();
      expect(await page.locator('.message', { hasText: 'bike' }).count()).toBe(0);
      // The chat continues that session.
      await say('And herbs?', 'Basil by the tomatoes.');
      const garden = (await bed.get(`/sessions/${first}/messages`)).body as unknown as Stored;
      expect(garden.messages.map((m) => m.text)).toContain('And herbs?');
      expect(await row(/Plan my garden beds/).getAttribute('aria-current')).toBe('true');
    });

    it('renames inline, searches, and keeps the history across a reload', async () => {
      await list()
        .getByRole('button', { name: /Rename Plan my garden beds/ })
        .click();
      const input = page.getByLabel(/New title for/);
      await input.fill('Garden 2027');
      await input.press('Enter');
      await row(/Garden 2027/).waitFor({ timeout: 10_000 });

      await page.getByLabel('Search conversations').fill('touring');
      await expect.poll(() => list().getByRole('listitem').count(), { timeout: 10_000 }).toBe(1);
      await row(/Which bike/).waitFor();
      await page.getByLabel('Search conversations').fill('garden 2027');
      await row(/Garden 2027/).waitFor({ timeout: 10_000 });
      expect(await list().getByRole('listitem').count()).toBe(1);
      await page.getByLabel('Search conversations').fill('');

      await page.reload();
      await expect.poll(() => page.locator('.dot.on').count(), { timeout: 20_000 }).toBe(1);
      await page.locator('.message.assistant', { hasText: 'Basil by the tomatoes.' }).waitFor();
      expect(await page.locator('.message.user', { hasText: 'Plan my garden beds' }).count()).toBe(
        1,
      );
      await row(/Garden 2027/).waitFor({ timeout: 10_000 });
    });

    it('stops a slow reply with the Stop button, keeping what arrived', async () => {
      bed.fake.reply({
        chunks: Array.from({ length: 80 }, (_, i) => `leaf${i} `),
        chunkDelayMs: 50,
      });
      await page.getByLabel('Message').fill('Tell me everything about soil');
      await page.getByLabel('Message').press('Enter');
      const stop = page.getByRole('button', { name: 'Stop' });
      await stop.waitFor({ timeout: 20_000 });
      await page.locator('.message.assistant', { hasText: 'leaf3' }).waitFor({ timeout: 20_000 });
      await stop.click();
      await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 10_000 });
      const shown = await page.locator('.message.assistant .markdown').last().innerText();
      expect(shown).toMatch(/leaf0 leaf1 leaf2 leaf3/);
      expect(shown).not.toContain('leaf79');
      await expect.poll(() => bed.fake.requests.at(-1)?.abortedByClient).toBe(true);
      const session = String(await page.evaluate("localStorage.getItem('hearth.session_id')"));
      await expect
        .poll(async () => {
          const stored = (await bed.get(`/sessions/${session}/messages`)).body as unknown as Stored;
          return stored.messages.at(-1)?.text;
        })
        .toBe(shown);
    });

    it('edits the last message and resends it in place of the old exchange', async () => {
      await say('How deep for garlic?', 'About 5 cm.');
      await page.getByRole('button', { name: 'Edit last message' }).click();
      expect(await page.getByLabel('Message').inputValue()).toBe('How deep for garlic?');
      await page.getByLabel('Message').fill('How deep for garlic cloves in clay?');
      bed.fake.reply({ text: 'Shallower in clay: 3 cm.' });
      await page.getByRole('button', { name: 'Resend' }).click();
      await page.locator('.message.assistant', { hasText: 'Shallower in clay' }).waitFor();
      expect(await page.locator('.message', { hasText: 'About 5 cm.' }).count()).toBe(0);
      expect(await page.locator('.message.user', { hasText: 'How deep for garlic?' }).count()).toBe(
        0,
      );
      const session = String(await page.evaluate("localStorage.getItem('hearth.session_id')"));
      await expect
        .poll(async () => {
          const stored = (await bed.get(`/sessions/${session}/messages`)).body as unknown as Stored;
          return stored.messages.slice(-2).map((m) => m.text);
        })
        .toEqual(['How deep for garlic cloves in clay?', 'Shallower in clay: 3 cm.']);
    });

    it('deletes a conversation after a confirmation', async () => {
      await list()
        .getByRole('button', { name: /Delete Which bike/ })
        .click();
      const confirm = list().getByRole('group', { name: /Delete Which bike/ });
      await confirm.getByRole('button', { name: 'Keep' }).click();
      expect(await row(/Which bike/).count()).toBe(1);
      await list()
        .getByRole('button', { name: /Delete Which bike/ })
        .click();
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await expect.poll(() => row(/Which bike/).count(), { timeout: 10_000 }).toBe(0);
      const listed = (await bed.get('/sessions')).body.sessions as { title: string | null }[];
      expect(listed.map((s) => s.title)).not.toContain('Which bike should I buy?');
      expect(problems).toEqual([]);
    });

    it('finds no accessibility violation in the sidebar, at desktop and phone sizes', async () => {
      // Enough messages to overflow the list: the composer is still on screen.
      for (let i = 0; i < 6; i += 1) await say(`filler ${i}`, `Filler reply ${i}.`);
      const box = await page.getByLabel('Message').boundingBox();
      expect(box && box.y + box.height).toBeLessThanOrEqual(800);
      expect(await audit(page)).toEqual([]);
      // The rename form and the delete confirmation too.
      await list()
        .getByRole('button', { name: /Rename Garden 2027/ })
        .click();
      expect(await audit(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await list()
        .getByRole('button', { name: /Delete Garden 2027/ })
        .click();
      expect(await audit(page)).toEqual([]);
      await list().getByRole('button', { name: 'Keep' }).click();

      await page.setViewportSize({ width: 390, height: 844 });
      const toggle = page.getByRole('button', { name: 'Conversations' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await page.getByLabel('Search conversations').isVisible()).toBe(false);
      // The composer stays in view: the message list scrolls, not the page.
      const phoneBox = await page.getByLabel('Message').boundingBox();
      expect(phoneBox && phoneBox.y + phoneBox.height).toBeLessThanOrEqual(844);
      expect(await audit(page)).toEqual([]);
      await toggle.click();
      expect(await page.getByLabel('Search conversations').isVisible()).toBe(true);
      expect(await audit(page)).toEqual([]);
      for (const scheme of ['dark', 'light'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        expect(await audit(page), scheme).toEqual([]);
      }
      expect(problems).toEqual([]);
    });
  },
);
