/**
 * The operations views of the web client — Channels, Orchestrator, Usage, Privacy, Live log —
 * driven in Chromium against a real gateway: a webhook channel with its far end (the callback
 * server) and a stranger asking to pair, chat turns through the fake LLM (usage), a skill's
 * outbound request (the privacy audit), log lines arriving live. Every action's result is on
 * the page; hostile text renders as text; axe finds nothing; no view is wider than a phone.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelSchema } from '../config/schema.ts';
import { createLogTail } from '../observability/log-tail.ts';
import { createLogger, type Logger } from '../observability/logger.ts';
import { startCallbackServer, type CallbackServer } from '../channels/testing/callback-server.ts';
import { signedHeaders } from '../channels/webhook/signature.ts';
import { chromiumPath, chromiumSuiteTitle, launchChromium } from '../testing/fakes/chromium.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { startTestGateway } from '../testing/gateway/test-gateway.ts';
import { axeAudit } from './testing/axe-audit.ts';
import { buildClient, webWorkspace } from './testing/build-client.ts';

const SHOTS = join(webWorkspace, '..', 'screenshots', 'web');
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
const SECRET = 'admin-operations-secret';
const OWNER = 'owner-1';
/** Text that would run script if it were ever parsed as HTML. */
const HOSTILE = `<img src=x onerror="document.title='pwned'"><b>bold?</b>`;

const FETCHER = [
  '// hearth:hosts api.weather.example',
  '/**',
  ' * Fetches a URL.',
  ' * @param {string} url',
  ' */',
  'export async function get(url) {',
  '  try {',
  "    const response = await fetch(url, { method: 'GET' });",
  '    return `status ${response.status}`;',
  '  } catch (error) {',
  '    return `refused: ${error.message}`;',
  '  }',
  '}',
  '',
].join('\n');

describe.skipIf(!chromiumPath)(
  chromiumSuiteTitle('web client operations views against a real gateway'),
  { timeout: 120_000 },
  () => {
    let assets: string;
    let bed: ChatTestBed;
    let browser: Browser;
    let callback: CallbackServer;
    let logger: Logger;
    let seq = 0;

    async function deliver(sender: string, text: string): Promise<number> {
      const body = JSON.stringify({ id: `m-${(seq += 1)}`, sender, text });
      const res = await fetch(`${bed.gw.url}/api/v1/channels/webhook/hooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signedHeaders(SECRET, Date.now(), body) },
        body,
      });
      return res.status;
    }

    /** A page on one view, failing the test on any uncaught error. */
    async function open(
      view: string,
      size = SIZES.desktop,
      colorScheme: 'light' | 'dark' = 'light',
    ) {
      const context = await browser.newContext({ viewport: size, colorScheme });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy|Refused/.test(message.text()))
          problems.push(message.text());
      });
      await page.goto(`${bed.gw.url}/#${view}`);
      return { page, problems };
    }

    /** axe in light at desktop size here, then dark at phone size with screenshots of both. */
    async function check(page: Page, view: string, ready: (page: Page) => Promise<unknown>) {
      const light = await axeAudit(page);
      await page.screenshot({ path: join(SHOTS, `${view}-desktop.png`) });
      const phone = await open(view, SIZES.phone, 'dark');
      await ready(phone.page);
      const dark = await axeAudit(phone.page);
      await phone.page.screenshot({ path: join(SHOTS, `${view}-phone.png`) });
      const width = await phone.page.evaluate('document.documentElement.scrollWidth');
      await phone.page.context().close();
      expect({
        light: light.violations,
        dark: dark.violations,
        width,
        phone: phone.problems,
      }).toEqual({
        light: [],
        dark: [],
        width: SIZES.phone.width,
        phone: [],
      });
      expect(light.contrast + dark.contrast).toBeGreaterThan(5);
    }

    beforeAll(async () => {
      assets = await buildClient();
      callback = await startCallbackServer(SECRET);
      const tail = createLogTail();
      logger = createLogger({
        level: 'info',
        pretty: false,
        destination: { write: () => true },
        tail,
      });
      bed = await startChatTestBed(undefined, {
        webAssetsDir: assets,
        logger,
        logTail: tail,
        config: {
          channels: {
            hooks: channelSchema.parse({
              type: 'webhook',
              signing_secret: SECRET,
              callback_url: callback.url,
              allow_from: [OWNER],
            }),
          },
        },
      });
      browser = await launchChromium();
      await mkdir(SHOTS, { recursive: true });

      // The owner's message with HTML in it gets a reply; a stranger asks to pair.
      bed.fake.reply({ text: `Reply with ${HOSTILE}` });
      expect(await deliver(OWNER, `Hello ${HOSTILE}`)).toBe(200);
      await callback.next();
      expect(await deliver('stranger-7', 'let me in')).toBe(200);
      await callback.next();
      // Chat turns for usage; one runs a skill whose request the privacy audit records.
      for (const n of [1, 2]) {
        bed.fake.reply({ text: `Turn ${n}.`, usage: { inputTokens: 1200, outputTokens: 300 } });
        expect(
          (await bed.post('/chat', { message: `turn ${n}`, session_id: 'ops-a' })).status,
        ).toBe(200);
      }
      expect((await bed.post('/skills', { name: 'fetcher', code: FETCHER })).status).toBe(201);
      bed.fake.reply(
        { toolCalls: [{ name: 'fetcher_get', arguments: { url: 'https://elsewhere.example/x' } }] },
        { text: 'fetched' },
      );
      expect((await bed.post('/chat', { message: 'fetch', session_id: 'ops-b' })).status).toBe(200);
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await bed?.close();
      await callback?.close();
      if (assets) await rm(assets, { recursive: true, force: true });
    });

    it('Channels: state and counters, disable/enable/reconnect, approve a pairing, messages as text, mark read', async () => {
      const { page, problems } = await open('channels');
      const card = page.locator('li.card', { has: page.getByRole('heading', { name: /hooks/ }) });
      await card.getByText('connected', { exact: true }).waitFor();
      await card.getByRole('button', { name: 'Disable hooks' }).click();
      await page.getByRole('status').filter({ hasText: 'Disabled hooks' }).waitFor();
      await card.getByText('disabled', { exact: true }).waitFor();
      expect(await card.getByRole('button', { name: 'Reconnect hooks' }).isDisabled()).toBe(true);
      // By keyboard: focus the button and press Enter.
      await card.getByRole('button', { name: 'Enable hooks' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('status').filter({ hasText: 'Enabled hooks' }).waitFor();
      await card.getByText('connected', { exact: true }).waitFor({ timeout: 15_000 });
      await card.getByRole('button', { name: 'Reconnect hooks' }).click();
      await page.getByRole('status').filter({ hasText: 'Reconnecting hooks' }).waitFor();

      await card.getByRole('button', { name: 'Details of hooks' }).click();
      await card.getByText('Received').waitFor();
      const approve = card.getByRole('button', { name: 'Approve stranger-7' });
      await approve.waitFor();
      await approve.click();
      await card.getByRole('status').filter({ hasText: 'Approved stranger-7 on hooks' }).waitFor();
      await card.getByText('approved', { exact: true }).waitFor();
      expect(
        (await bed.get('/channels/hooks/pairings')).body.pairings as { status: string }[],
      ).toEqual([expect.objectContaining({ sender_id: 'stranger-7', status: 'approved' })]);

      // A request approved elsewhere while the page showed it: the gateway's refusal is shown.
      expect(await deliver('stranger-8', 'me too')).toBe(200);
      await callback.next();
      const stale = card.getByRole('button', { name: 'Approve stranger-8' });
      await stale.waitFor({ timeout: 15_000 });
      const { pairings } = (await bed.get('/channels/hooks/pairings')).body as {
        pairings: { sender_id: string; code?: string }[];
      };
      const code = pairings.find((p) => p.sender_id === 'stranger-8')?.code ?? '';
      expect((await bed.post(`/channels/hooks/pairings/${code}/approve`, {})).status).toBe(200);
      await stale.click();
      await card
        .getByRole('status')
        .filter({ hasText: `No pending pairing code ${code} on channel 'hooks'` })
        .and(card.locator('.error'))
        .waitFor();

      // The hostile text is shown as text, in and out; nothing of it became an element.
      await card.getByText(`Hello ${HOSTILE}`).waitFor();
      await card.getByText(`Reply with ${HOSTILE}`).waitFor();
      expect(await card.locator('img, b').count()).toBe(0);
      expect(await page.title()).not.toBe('pwned');
      await card.getByRole('button', { name: 'Mark all read' }).click();
      await card
        .getByRole('status')
        .filter({ hasText: /Marked \d+ messages? read/ })
        .waitFor();
      expect(((await bed.get('/channels')).body.channels as { unread: number }[])[0]?.unread).toBe(
        0,
      );

      await check(page, 'channels', async (p) => {
        await p.getByRole('button', { name: 'Details of hooks' }).click();
        await p.getByText('Mark all read').waitFor();
      });
      expect(problems).toEqual([]);
      await page.context().close();
    });

    it('Orchestrator: add a node (a refused one says why), counters, enable/disable, priority, delete after confirming', async () => {
      const { page, problems } = await open('orchestrator');
      await page.getByText('No node yet: add one above.').waitFor();
      await page.getByLabel('Name').fill('Bad Name');
      await page.getByLabel('Model').fill('gpt-4o');
      await page.getByRole('button', { name: 'Add node' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: /Not added: .*name/ })
        .waitFor();

      await page.getByLabel('Name').fill('research');
      await page.getByLabel('Keywords').fill(`${HOSTILE}, papers`);
      await page.getByLabel('Model').press('Enter');
      await page.getByRole('status').filter({ hasText: 'Added research' }).waitFor();
      const card = page.locator('li.card', {
        has: page.getByRole('heading', { name: 'research' }),
      });
      await card.getByText('enabled', { exact: true }).waitFor();
      await card.getByText(/Keywords: .*<img src=x/).waitFor();
      expect(await card.locator('img, b').count()).toBe(0);

      // A routed task moves the node's counters.
      bed.fake.reply({ text: 'Routed.', usage: { inputTokens: 30, outputTokens: 5 } });
      const routed = await bed.post('/orchestrator/route', { content: 'find papers' });
      expect(routed.body).toMatchObject({ node: 'research' });
      await page.reload();
      await card.locator('dt', { hasText: 'Requests' }).waitFor();
      await expect
        .poll(() =>
          card
            .locator('div', { has: page.locator('dt', { hasText: /^Requests$/ }) })
            .locator('dd')
            .textContent(),
        )
        .toBe('1');

      await card.getByRole('button', { name: 'Disable research' }).click();
      await page.getByRole('status').filter({ hasText: 'Disabled research' }).waitFor();
      await card.getByText('disabled', { exact: true }).waitFor();
      await card.getByRole('button', { name: 'Enable research' }).click();
      await page.getByRole('status').filter({ hasText: 'Enabled research' }).waitFor();
      await card.getByLabel('Priority of research').fill('7');
      await card.getByLabel('Priority of research').press('Enter');
      await page.getByRole('status').filter({ hasText: 'Priority of research set to 7' }).waitFor();
      expect((await bed.get('/orchestrator/nodes/research')).body).toMatchObject({
        priority: 7,
        enabled: true,
      });
      // Out of range: the browser says so at the field and nothing is sent.
      await card.getByLabel('Priority of research').fill('5000');
      await card.getByLabel('Priority of research').press('Enter');
      expect(
        await page.evaluate("document.getElementById('priority-research').validationMessage"),
      ).not.toBe('');
      expect((await bed.get('/orchestrator/nodes/research')).body).toMatchObject({ priority: 7 });

      await check(page, 'orchestrator', (p) =>
        p.getByRole('heading', { name: 'research' }).waitFor(),
      );

      await card.getByRole('button', { name: 'Delete research…' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Delete research?' });
      await dialog.waitFor();
      // The dialog takes the focus; Escape (or "Keep it") leaves the node.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect((await bed.get('/orchestrator/nodes/research')).status).toBe(200);
      await card.getByRole('button', { name: 'Delete research…' }).click();
      // The confirmation takes the focus once it has rendered.
      await expect
        .poll(() => page.evaluate('document.activeElement?.textContent'))
        .toBe('Delete research');
      await page.keyboard.press('Enter');
      await page
        .getByRole('status')
        .filter({ hasText: /Deleted research and \d+ memory rows?/ })
        .waitFor();
      expect((await bed.get('/orchestrator/nodes/research')).status).toBe(404);
      await page.getByText('No node yet: add one above.').waitFor();
      expect(problems).toEqual([]);
      await page.context().close();
    });

    it('Usage: totals, an SVG chart with its table, per model, persisted buckets by day and hour', async () => {
      const { page, problems } = await open('usage');
      const totals = page.locator('dl.totals');
      await totals.waitFor();
      const history = (await bed.get('/usage/history?days=7')).body as {
        totals: { input_tokens: number; requests: number };
      };
      expect(history.totals.input_tokens).toBeGreaterThanOrEqual(2400);
      await totals.getByText(history.totals.input_tokens.toLocaleString('en-US')).waitFor();
      const chart = page.getByRole('img', { name: /^Tokens per day, last 7 days/ });
      await chart.waitFor();
      expect(await chart.locator('rect.bar').count()).toBe(7);
      await page.getByText('The chart as a table').click();
      const table = page.getByRole('region', { name: 'Chart data' });
      expect(await table.locator('tbody tr').count()).toBe(7);
      await page
        .getByRole('region', { name: 'Per model' })
        .getByRole('rowheader', { name: 'gpt-4o' })
        .waitFor();

      await page.getByLabel('Period').selectOption({ label: 'Last 24 hours (hourly)' });
      await page.getByRole('img', { name: /^Tokens per hour/ }).waitFor();
      expect(await page.locator('svg.usage-chart rect.bar').count()).toBe(24);
      await page.getByLabel('Cost (USD)').check();
      await page.getByRole('img', { name: /^Cost \(USD\) per hour/ }).waitFor();
      await page.getByLabel('Generations').check();
      await page
        .getByRole('img', {
          name: new RegExp(`^Generations per hour.*: ${history.totals.requests} in all`),
        })
        .waitFor();

      await check(page, 'usage', (p) => p.getByRole('img', { name: /per day/ }).waitFor());
      expect(problems).toEqual([]);
      await page.context().close();
    });

    it('Privacy: destinations with counts, filtered by session, cleared after confirming', async () => {
      const { page, problems } = await open('privacy');
      const destinations = page.getByRole('region', { name: 'Destinations' });
      await destinations.getByRole('rowheader', { name: 'elsewhere.example' }).waitFor();
      await page.getByLabel('Session').selectOption('ops-b');
      await page.getByText(/^1 request \(made or refused\) to 1 destination/).waitFor();
      await page.getByText(/GET https:\/\/elsewhere\.example\/x/).waitFor();
      await check(page, 'privacy', (p) =>
        p.getByRole('region', { name: 'Destinations' }).getByRole('rowheader').first().waitFor(),
      );

      await page.getByRole('button', { name: 'Clear…' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Clear the privacy report?' });
      await dialog.getByRole('button', { name: 'Clear session ops-b' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'Cleared 1 entry of session ops-b' })
        .waitFor();
      await page.getByText('No outbound request recorded for session ops-b.').waitFor();
      expect((await bed.get('/privacy/report?session_id=ops-b')).body).toMatchObject({ total: 0 });
      expect(problems).toEqual([]);
      await page.context().close();
    });

    it('Live log: lines arrive live as text, a level filter, pause and resume, at most 1,000 kept', async () => {
      const { page, problems } = await open('logs');
      await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
      const lines = page.getByRole('list', { name: 'Log lines' });
      logger.warn(`a marker line ${HOSTILE}`);
      await lines.getByText(`a marker line ${HOSTILE}`).waitFor();
      expect(await lines.locator('img, b').count()).toBe(0);

      await page.getByLabel('Lowest level').selectOption('error');
      await expect.poll(() => lines.getByText('a marker line').count()).toBe(0);
      logger.error('an error line');
      await lines.getByText('an error line').waitFor();
      await page.getByLabel('Lowest level').selectOption('info');

      await page.getByRole('button', { name: 'Pause' }).click();
      logger.info('while paused');
      await page.getByRole('status').filter({ hasText: 'Paused: 1 new line since.' }).waitFor();
      expect(await lines.getByText('while paused').count()).toBe(0);
      await page.getByRole('button', { name: 'Resume' }).click();
      await lines.getByText('while paused').waitFor();

      await check(page, 'logs', (p) => p.getByRole('status').filter({ hasText: 'Live' }).waitFor());

      for (let i = 0; i < 1_200; i += 1) logger.info(`flood ${i}`);
      await lines.getByText('flood 1199', { exact: true }).waitFor();
      expect(await lines.locator('li').count()).toBe(1_000);
      expect(await lines.getByText('flood 199', { exact: true }).count()).toBe(0);
      expect(await lines.getByText('flood 200', { exact: true }).count()).toBe(1);

      expect(problems).toEqual([]);
      await page.context().close();
    });

    it('says plainly when there is nothing yet: no channel, no node, no usage, no request, no line', async () => {
      const bare = await startTestGateway({ webAssetsDir: assets });
      try {
        await bare.gateway.whenReady();
        const context = await browser.newContext({ viewport: SIZES.phone });
        const page = await context.newPage();
        const expected: [string, string | RegExp][] = [
          ['channels', /^No channel is configured/],
          ['orchestrator', 'No node yet: add one above.'],
          ['usage', /^No generation in this period\. Usage is kept 90 days\./],
          ['privacy', 'No outbound request recorded for all sessions.'],
          ['logs', 'This gateway keeps no log for clients (its logger has no tail).'],
        ];
        for (const [view, text] of expected) {
          await page.goto(`${bare.url}/#${view}`);
          await page.getByText(text).first().waitFor();
          expect((await axeAudit(page)).violations, view).toEqual([]);
        }
        await context.close();
      } finally {
        await bare.close();
      }
    });
  },
);
