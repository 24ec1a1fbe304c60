/**
 * `npm run screenshots`: builds the web client, starts a real gateway on the fake LLM with a
 * conversation, a pending approval, canvas blocks and a memory, and saves every view the
 * navigation lists (web/src/views/registry.ts) at desktop and phone sizes, light and dark,
 * into screenshots/web/ (git-ignored), printing each file's path.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startChatTestBed } from '../gateway/src/testing/gateway/chat-gateway.ts';
import { chromiumPath, launchChromium } from '../gateway/src/testing/fakes/chromium.ts';
import { buildClient } from '../gateway/src/web-client/testing/build-client.ts';
import { shootViews } from '../gateway/src/web-client/testing/shoot-views.ts';

if (!chromiumPath) {
  process.stderr.write('No Chromium found: apt-get install chromium\n');
  process.exit(1);
}
const outDir = join(import.meta.dirname, '..', 'screenshots', 'web');
await mkdir(outDir, { recursive: true });
const assets = await buildClient();
const bed = await startChatTestBed(undefined, {
  webAssetsDir: assets,
  approvalExpiryMs: 30 * 60_000,
});
const browser = await launchChromium();
try {
  await bed.post('/canvas/render', {
    type: 'markdown',
    content: '## Weekly plan\n\n- rest\n- read',
  });
  await bed.post('/canvas/render', {
    type: 'chart',
    content: { type: 'bar', labels: ['Mon', 'Tue', 'Wed'], values: [3, 5, 2] },
  });
  await bed.post('/canvas/render', { type: 'code', content: 'print("hi")', language: 'python' });
  await bed.post('/memory', { content: 'The user prefers tea to coffee.', importance: 0.8 });
  let first = true;
  /** Each page is a new browser: a short conversation, the first one raising an approval. */
  const prepare = async (page: Page) => {
    await page.locator('.dot.on').waitFor({ timeout: 20_000 });
    if (first) {
      bed.fake.reply(
        { toolCalls: [{ name: 'shell', arguments: { command: 'ls ~/notes' } }] },
        { text: 'Listed.' },
      );
    } else {
      bed.fake.reply({
        text: 'Here is the plan for **this week**:\n\n1. Rest\n2. Read\n\n```python\nprint("hi")\n```',
      });
    }
    await page.getByLabel('Message').fill(first ? 'list my notes' : 'plan my week');
    await page.getByLabel('Message').press('Enter');
    await page
      .locator(first ? '.message.approval' : '.message.assistant')
      .last()
      .waitFor({
        timeout: 20_000,
      });
    first = false;
  };
  const paths = await shootViews(browser, bed.gw.url, outDir, { prepare });
  for (const path of paths) process.stdout.write(`${path}\n`);
} finally {
  await browser.close();
  await bed.close();
  await rm(assets, { recursive: true, force: true });
}
