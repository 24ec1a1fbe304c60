import { createServer } from 'node:net';
import { rm } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, chromiumSuiteTitle, launchChromium } from '../testing/fakes/chromium.ts';
import { createFakeLlmServer, type FakeLlmServer } from '../testing/fakes/fake-llm/server.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';
import { buildClient } from './testing/build-client.ts';

/** A loopback port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * A newcomer's first run in the browser: the default configuration, no local runtime, no key.
 * The page opens on the set-up page, a key saved there makes a model ready, and the first
 * message is answered.
 */
describe.skipIf(!chromiumPath)(
  chromiumSuiteTitle('web client first run: the set-up page'),
  { timeout: 180_000 },
  () => {
    let assets: string;
    let browser: Browser;
    let fake: FakeLlmServer;
    let gw: TestGateway;
    let ollamaPort: number;

    beforeAll(async () => {
      assets = await buildClient();
      browser = await launchChromium();
      fake = await createFakeLlmServer({ models: ['gpt-4o-mini'] });
      ollamaPort = await closedPort();
      gw = await startTestGateway({
        // No local runtime answers; no key is set (OpenAI's address is the fake's).
        config: { models: { ollama_base_url: `http://127.0.0.1:${ollamaPort}` } },
        providerEndpoints: { openai: `${fake.url}/v1` },
        webAssetsDir: assets,
      });
      await gw.gateway.whenReady();
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await gw?.close();
      await fake?.close();
      if (assets) await rm(assets, { recursive: true, force: true });
    });

    it('opens the set-up page, refuses a reference, saves a key, checks it live and chats', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(gw.url);

      // No model works: the page opens on the set-up page and says why.
      await page.getByRole('heading', { name: 'Set up a model' }).waitFor({ timeout: 20_000 });
      expect(new URL(page.url()).hash).toBe('#setup');
      await page.getByText('No model can answer yet.').waitFor();
      expect(await page.getByRole('status').first().textContent()).toContain(
        `the local runtime (Ollama) at http://127.0.0.1:${ollamaPort} is not reachable`,
      );

      // All 19 providers; the Ollama URL has its default filled in.
      const provider = page.getByLabel('Provider');
      expect(await provider.locator('option').count()).toBe(19);
      await provider.selectOption('ollama');
      expect(await page.getByLabel('Ollama URL').inputValue()).toBe('http://127.0.0.1:11434');
      expect(await page.getByLabel('Model', { exact: true }).inputValue()).toBe('ollama/llama3.2');

      // A key reference is refused over the API, and the page says so before and after.
      await provider.selectOption('openai');
      expect(await page.getByLabel('Model', { exact: true }).inputValue()).toBe('gpt-4o-mini');
      await page.getByText(/ENV: and op:\/\/ references are not accepted here/).waitFor();
      await page.getByLabel('API key').fill('ENV:OPENAI_API_KEY');
      await page.getByRole('button', { name: 'Save and check' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: 'references are accepted only in config.toml' })
        .waitFor();

      // The literal key: saved, checked live against the provider's model list, ready.
      await page.getByLabel('API key').fill('sk-first-run');
      await page.getByRole('button', { name: 'Save and check' }).click();
      await page.getByText(/^Live check: reachable/).waitFor({ timeout: 20_000 });
      await page.getByText(/^Ready: gpt-4o-mini \(openai is configured/).waitFor();
      expect(fake.requests.some((r) => r.path === '/v1/models')).toBe(true);
      const status = (await (await fetch(`${gw.url}/api/v1/status`)).json()) as {
        model_ready: { ok: boolean };
      };
      expect(status.model_ready.ok).toBe(true);

      // The first message is answered by the model set up here.
      fake.reply({ text: 'Hello from the model you just set up.' });
      await page.getByRole('link', { name: 'Start chatting' }).click();
      await expect.poll(() => page.locator('.dot.on').count(), { timeout: 20_000 }).toBe(1);
      await page.getByLabel('Message').fill('hello');
      await page.getByLabel('Message').press('Enter');
      await page
        .locator('.message.assistant', { hasText: 'Hello from the model you just set up.' })
        .waitFor({ timeout: 20_000 });
      expect(lastModel(fake)).toBe('gpt-4o-mini');
      expect(problems).toEqual([]);
      await context.close();
    });

    it('Status shows first whether a model can answer, and the embedder as off with how to turn it on', async () => {
      const fresh = await startTestGateway({
        config: { models: { ollama_base_url: `http://127.0.0.1:${ollamaPort}` } },
        webAssetsDir: assets,
      });
      try {
        await fresh.gateway.whenReady();
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(`${fresh.url}/#status`);
        const first = page.locator('section > :is(p, div)').first();
        await first.filter({ hasText: 'No model can answer yet' }).waitFor({ timeout: 20_000 });
        expect(await first.textContent()).toContain('`hearth setup`');
        await first.getByRole('link', { name: 'Open the set-up page' }).waitFor();
        const embedder = page.getByRole('row', { name: /embedder/ });
        expect(await embedder.locator('td').textContent()).toBe(
          'off (no embedding model; to turn on: hearth memory models pull)',
        );
        expect(await embedder.locator('td').getAttribute('class')).toBe('muted');

        // Settings covers the 19 providers, the Ollama URL and the models.
        await page.getByRole('link', { name: 'Settings' }).click();
        await page.getByRole('group', { name: 'openai_compatible' }).waitFor();
        expect(await page.locator('fieldset.provider').count()).toBe(19);
        // The form is drawn before the configured values arrive: read them once they have.
        await expect
          .poll(() => page.getByLabel('ollama: Ollama URL').inputValue())
          .toBe(`http://127.0.0.1:${ollamaPort}`);
        await expect
          .poll(() => page.getByRole('row', { name: /primary ollama\/llama3\.2/ }).count())
          .toBe(1);
        await page.getByLabel('Use this model (empty: automatic)').fill('claude-sonnet-4-5');
        await page.getByRole('button', { name: 'Save model' }).click();
        await page.getByText('Model: claude-sonnet-4-5').waitFor();
        const models = (await (await fetch(`${fresh.url}/api/v1/models`)).json()) as {
          routing: { pinned_model: string | null };
        };
        expect(models.routing.pinned_model).toBe('claude-sonnet-4-5');
        await context.close();
      } finally {
        await fresh.close();
      }
    });
  },
);

/** The model the fake was last asked for (OpenAI chat wire). */
function lastModel(fake: FakeLlmServer): unknown {
  const chat = fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1);
  return (chat?.body as { model?: unknown } | undefined)?.model;
}
