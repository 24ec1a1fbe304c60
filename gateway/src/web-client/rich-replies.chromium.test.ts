/**
 * Rich replies in the browser, against a real gateway and the fake LLM: code blocks coloured by
 * the highlight chunk (loaded only when a reply needs it) with a working Copy button, a GFM
 * table in a keyboard-scrollable wrapper, a tool card that opens from the keyboard and shows
 * hostile arguments as text, the memories a reply used, and an approval decided inline in the
 * conversation with the turn completing — then axe-core over all of it, light and dark.
 */
import { readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, chromiumSuiteTitle, launchChromium } from '../testing/fakes/chromium.ts';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { sessionIdFor } from '../memory/session-id.ts';
import { buildClient } from './testing/build-client.ts';

const AXE_SOURCE = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

const CODE_REPLY = [
  'Here is the script:',
  '',
  '```python',
  'def greet(name):',
  '    return f"hello {name}"  # says hello',
  '```',
  '',
  '| Setting | Value | Meaning |',
  '| --- | --- | --- |',
  `| max_tool_steps | 5 | ${'a very long explanation that makes the table wide '.repeat(4)}|`,
  '| top_k | 8 | memories per turn |',
].join('\n');

/** Markup that must stay inert: scripts, handlers, a code fence whose language is an attack. */
const HOSTILE_REPLY = [
  '<script>window.pwned = "script"</script>',
  '',
  'Text <img src="x" onerror="window.pwned = \'img\'"> and <a href="javascript:window.pwned=1">a link</a>',
  '',
  '```"><img src=x onerror="window.pwned=\'lang\'">',
  '</code></pre><img src=x onerror="window.pwned=\'fence\'">',
  '```',
].join('\n');

const HOSTILE_ARGS = { timezone: '<img src=x onerror="window.pwned=\'args\'"><b>UTC</b>' };

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

describe.skipIf(!chromiumPath)(
  chromiumSuiteTitle('rich replies: code, tables, tool cards, memories, inline approvals'),
  { timeout: 180_000 },
  () => {
    let assets: string;
    let bed: ChatTestBed;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    const problems: string[] = [];
    const scripts: string[] = [];

    beforeAll(async () => {
      assets = await buildClient();
      bed = await startChatTestBed(undefined, { webAssetsDir: assets });
      browser = await launchChromium();
      context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: bed.gw.url,
      });
      page = await context.newPage();
      page.on('console', (message) => {
        // Chromium reports an inline handler attribute when the sanitiser *parses* one, even in
        // an inert document (DOMParser, <template>); that no handler runs is asserted below.
        if (/inline event handler/.test(message.text())) return;
        if (message.type() === 'error' && /Content Security Policy|Refused/.test(message.text()))
          problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
      });
      await page.goto(bed.gw.url);
      await page.locator('.dot.on').waitFor({ timeout: 20_000 });
    }, 180_000);
    afterAll(async () => {
      await context?.close();
      await browser?.close();
      await bed?.close();
      if (assets) await rm(assets, { recursive: true, force: true });
    });

    async function send(text: string): Promise<void> {
      await page.getByLabel('Message').fill(text);
      await page.getByLabel('Message').press('Enter');
    }

    it('colours a code block from a chunk loaded on demand; Copy copies it and says so', async () => {
      // Nothing needed the highlighter yet: only the main script was loaded.
      expect(scripts.some((path) => path.includes('highlight'))).toBe(false);
      bed.fake.reply({ text: CODE_REPLY });
      await send('show me code');
      const block = page.locator('.message.assistant .code-block').last();
      await block.waitFor({ timeout: 20_000 });
      expect(await block.locator('.code-lang').innerText()).toBe('python');
      await block.locator('.hljs-keyword', { hasText: 'def' }).waitFor({ timeout: 20_000 });
      expect(await block.locator('.hljs-comment').innerText()).toBe('# says hello');
      expect(scripts.filter((path) => path.includes('highlight'))).toHaveLength(1);
      const copy = block.getByRole('button', { name: 'Copy code' });
      await copy.click();
      await block.getByRole('button', { name: 'Copied code' }).waitFor();
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(
        'def greet(name):\n    return f"hello {name}"  # says hello\n',
      );
      await block.getByRole('button', { name: 'Copy code' }).waitFor({ timeout: 5_000 });
    });

    it('puts a table in a labelled wrapper the keyboard reaches, which scrolls on a phone', async () => {
      const wrapper = page.locator('.message.assistant .table-scroll').last();
      expect(await wrapper.getAttribute('tabindex')).toBe('0');
      expect(await wrapper.getAttribute('aria-label')).toBe('Table (scrolls sideways)');
      expect(await wrapper.locator('th').allInnerTexts()).toEqual(['Setting', 'Value', 'Meaning']);
      await page.setViewportSize({ width: 390, height: 844 });
      const scrolls = await page.evaluate(`(() => {
        const el = [...document.querySelectorAll('.message.assistant .table-scroll')].at(-1);
        return el.scrollWidth > el.clientWidth;
      })()`);
      expect(scrolls).toBe(true);
      await wrapper.focus();
      await page.keyboard.press('ArrowRight');
      await expect
        .poll(async () =>
          Number(
            await page.evaluate(
              "[...document.querySelectorAll('.message.assistant .table-scroll')].at(-1).scrollLeft",
            ),
          ),
        )
        .toBeGreaterThan(0);
      await page.setViewportSize({ width: 1280, height: 800 });
    });

    it('keeps a hostile reply inert: no script runs, no handler fires, the CSP holds', async () => {
      bed.fake.reply({ text: HOSTILE_REPLY });
      await send('be hostile');
      const block = page.locator('.message.assistant .code-block').nth(1);
      await block.waitFor({ timeout: 20_000 });
      await page.waitForTimeout(300);
      expect(await page.evaluate('window.pwned')).toBeUndefined();
      expect(await page.locator('.messages script, .messages img').count()).toBe(0);
      const handlers = await page.evaluate(
        `[...document.querySelectorAll('.messages *')].flatMap((el) =>
          [...el.attributes].filter((a) => /^on/i.test(a.name) || /javascript:/i.test(a.value)))
          .length`,
      );
      expect(handlers).toBe(0);
      // The fence's language is not a language: the code is shown as text, unlabelled.
      expect(await block.locator('.code-lang').innerText()).toBe('text');
      expect(await block.locator('pre code').innerText()).toContain('</code></pre><img src=x');
      expect(problems).toEqual([]);
    });

    it('shows a tool call as a collapsed card that opens from the keyboard, arguments as text', async () => {
      bed.fake.reply(
        { toolCalls: [{ name: 'current_time', arguments: HOSTILE_ARGS }] },
        { text: 'The time is on the card.' },
      );
      await send('what time is it?');
      await page
        .locator('.message.assistant', { hasText: 'The time is on the card.' })
        .waitFor({ timeout: 20_000 });
      const card = page.locator('.message.tool .tool-card').last();
      expect(await card.locator('summary').innerText()).toMatch(
        /^Tool current_time (done|failed)$/,
      );
      expect(await card.getAttribute('open')).toBeNull();
      await card.locator('summary').focus();
      await page.keyboard.press('Enter');
      expect(await card.getAttribute('open')).toBe('');
      const argumentsText = await card.locator('pre').first().innerText();
      expect(JSON.parse(argumentsText)).toEqual(HOSTILE_ARGS);
      expect(await card.locator('img, b').count()).toBe(0);
      expect(await card.locator('pre').nth(1).innerText()).not.toBe('');
      expect(await page.evaluate('window.pwned')).toBeUndefined();
    });

    it('lists the memories a reply used, collapsed, like its web sources', async () => {
      const clientId = String(await page.evaluate("localStorage.getItem('hearth.client_id')"));
      const stored = await bed.post('/memory', {
        content: 'The allotment gate code is 4417.',
        session_id: sessionIdFor('web', clientId),
      });
      expect(stored.status).toBeLessThan(300);
      bed.fake.reply({ text: 'It is 4417.' });
      await send('What is the allotment gate code?');
      const reply = page.locator('.message.assistant', { hasText: 'It is 4417.' });
      await reply.waitFor({ timeout: 20_000 });
      const memories = reply.locator('details.memories');
      expect(await memories.locator('summary').innerText()).toMatch(/^\d+ memor(y|ies) used$/);
      await memories.locator('summary').click();
      expect(await memories.innerText()).toContain('The allotment gate code is 4417.');
    });

    it('decides an approval inline: the whole command, Approve, the outcome, the turn completes', async () => {
      bed.fake.reset();
      bed.fake.reply(
        { toolCalls: [{ name: 'shell', arguments: { command: 'echo inline-approved' } }] },
        { text: 'It printed inline-approved.' },
      );
      await send('please run echo');
      const inline = page.locator('.message.approval').last();
      await inline.locator('.approval', { hasText: 'echo inline-approved' }).waitFor({
        timeout: 20_000,
      });
      expect(await inline.locator('pre.command').innerText()).toBe('echo inline-approved');
      await inline.getByRole('button', { name: 'Approve', exact: true }).click();
      await inline.locator('.outcome', { hasText: 'Approved' }).waitFor({ timeout: 20_000 });
      await page
        .locator('.message.assistant', { hasText: 'It printed inline-approved.' })
        .waitFor({ timeout: 20_000 });
      const card = page.locator('.message.tool .tool-card').last();
      await card.locator('summary').click();
      expect(await card.locator('pre').nth(1).innerText()).toContain('inline-approved');
      expect(
        INSPECTORS['openai-chat'].toolResults(bed.fake.requests[1]!).map((r) => r.output),
      ).toEqual(['exit code 0\nstdout:\ninline-approved\n']);
    });

    it('shows the outcome of an approval decided elsewhere (denied over REST)', async () => {
      bed.fake.reset();
      bed.fake.reply(
        { toolCalls: [{ name: 'shell', arguments: { command: 'touch never-made' } }] },
        { text: 'It was denied.' },
      );
      await send('make the file');
      const inline = page.locator('.message.approval').last();
      await inline.locator('.approval', { hasText: 'touch never-made' }).waitFor({
        timeout: 20_000,
      });
      const pending = (await bed.get('/approvals/pending')).body.pending as { id: string }[];
      for (const { id } of pending) await bed.post(`/approvals/${id}/deny`, {});
      await inline.locator('.outcome', { hasText: 'Denied' }).waitFor({ timeout: 20_000 });
      await page
        .locator('.message.assistant', { hasText: 'It was denied.' })
        .waitFor({ timeout: 20_000 });
    });

    it('finds no axe violation in a conversation holding all of them, light and dark', async () => {
      // Everything open, so what the cards hold is audited too.
      await page.evaluate(
        "document.querySelectorAll('.messages details').forEach((d) => { d.open = true; })",
      );
      const found: Record<string, string[]> = {};
      found.light = await audit(page);
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.setViewportSize({ width: 390, height: 844 });
      found.dark = await audit(page);
      expect(found).toEqual({ light: [], dark: [] });
      expect(problems).toEqual([]);
    });
  },
);
