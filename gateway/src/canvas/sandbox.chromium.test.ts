import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  chromiumPath,
  chromiumSuiteTitle,
  launchChromium,
  startEgressListener,
} from '../testing/fakes/chromium.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';

/** Every egress a page can try, aimed at `target`; the DOM change proves the script ran. */
function hostileBlock(target: string, navigation: 'top' | 'self' | 'none'): string {
  const ws = target.replace('http:', 'ws:');
  return `<p id="out">before</p>
<form id="f" method="post" action="${target}/form"><input name="a" value="1"></form>
<img src="${target}/img.png" alt="">
<link rel="stylesheet" href="${target}/style.css">
<script src="${target}/script.js"></script>
<script>
document.getElementById('out').textContent = 'script ran';
const attempts = [
  () => fetch('${target}/fetch').catch(() => {}),
  () => { const x = new XMLHttpRequest(); x.open('GET', '${target}/xhr'); x.send(); },
  () => new WebSocket('${ws}/ws'),
  () => navigator.sendBeacon('${target}/beacon', 'x'),
  () => new EventSource('${target}/events'),
  () => { const i = new Image(); i.src = '${target}/image-object.png'; },
  () => document.getElementById('f').submit(),
  () => window.open('${target}/popup'),
];
for (const attempt of attempts) { try { attempt(); } catch {} }
// Navigations last, when the test has seen the DOM change: a blocked one leaves an error page.
addEventListener('message', () => {
  ${navigation === 'top' ? `try { top.location = '${target}/top'; } catch {}` : ''}
  ${navigation === 'self' ? `try { location.href = '${target}/self'; } catch {}` : ''}
});
</script>`;
}

/**
 * Behaviour rule 20: an html block runs its scripts in a sandboxed iframe, and no request of
 * any kind leaves it. The host page stands in for the web client at the gateway's origin, with
 * the client's own frame policy (`frame-src 'self'`: the frame cannot navigate itself away).
 */
describe.skipIf(!chromiumPath)(
  chromiumSuiteTitle('canvas html block sandbox'),
  { timeout: 90_000 },
  () => {
    let gw: TestGateway;
    let browser: Browser;
    let listener: Awaited<ReturnType<typeof startEgressListener>>;
    beforeAll(async () => {
      gw = await startTestGateway();
      await gw.gateway.whenReady();
      listener = await startEgressListener();
    });
    // A fresh browser per test: Chromium's connection predictor would otherwise carry one test's
    // attempts into the next.
    beforeEach(async () => {
      browser = await launchChromium();
      listener.seen.length = 0;
      listener.connections.length = 0;
    });
    afterEach(async () => {
      await browser?.close();
    });
    afterAll(async () => {
      await listener?.close();
      await gw?.close();
    });

    /** A page at the gateway's origin that frames the block as the web client does. */
    async function hostPage(id: string) {
      const page = await browser.newPage();
      const hostUrl = `${gw.url}/canvas-sandbox-host`;
      await page.route(hostUrl, (route) =>
        route.fulfill({
          contentType: 'text/html',
          headers: { 'content-security-policy': "default-src 'self'; frame-src 'self'" },
          body: `<!doctype html><iframe id="block" sandbox="allow-scripts" src="/canvas/frame/${id}"></iframe>`,
        }),
      );
      await page.goto(hostUrl);
      return page;
    }

    it('lets the block script change its DOM while fetch, XHR, WebSocket, beacon, img, form and top.location reach nothing', async () => {
      const response = await fetch(`${gw.url}/api/v1/canvas/render`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'html', content: hostileBlock(listener.origin, 'top') }),
      });
      const { id } = (await response.json()) as { id: string };
      const page = await hostPage(id);
      const frame = page.frameLocator('#block');
      await expect
        .poll(() => frame.locator('#out').textContent(), { timeout: 15_000 })
        .toBe('script ran');
      await page.evaluate("document.getElementById('block').contentWindow.postMessage('go', '*')");
      // Give every attempt time to reach the listener, had it been allowed to.
      await page.waitForTimeout(2_500);
      expect(listener.seen).toEqual([]);
      expect(listener.connections).toEqual([]);
      expect(page.url()).toBe(`${gw.url}/canvas-sandbox-host`);
      expect(page.frames().map((f) => f.url())).not.toContainEqual(
        expect.stringContaining(listener.origin),
      );
      expect(await page.locator('#block').getAttribute('sandbox')).toBe('allow-scripts');
      await page.close();
    });

    it('keeps the block sandboxed when its page is opened directly, outside any frame', async () => {
      const response = await fetch(`${gw.url}/api/v1/canvas/render`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'html',
          content: `<p id="origin"></p><script>document.getElementById('origin').textContent = String(self.origin);</script>${hostileBlock(listener.origin, 'none')}`,
        }),
      });
      const { id } = (await response.json()) as { id: string };
      const page = await browser.newPage();
      await page.goto(`${gw.url}/canvas/frame/${id}`);
      await expect.poll(() => page.locator('#out').textContent()).toBe('script ran');
      // An opaque origin: the page cannot read the gateway's API with the user's credentials.
      expect(await page.locator('#origin').textContent()).toBe('null');
      // (No navigation attempt here: opened directly, the page is its own top.)
      await page.waitForTimeout(2_500);
      expect(listener.seen).toEqual([]);
      expect(listener.connections).toEqual([]);
      await page.close();
    });

    it('stops the frame navigating itself away before any request (the client frames only its own origin)', async () => {
      const response = await fetch(`${gw.url}/api/v1/canvas/render`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'html', content: hostileBlock(listener.origin, 'self') }),
      });
      const { id } = (await response.json()) as { id: string };
      const page = await hostPage(id);
      const frame = page.frameLocator('#block');
      await expect
        .poll(() => frame.locator('#out').textContent(), { timeout: 15_000 })
        .toBe('script ran');
      await page.evaluate("document.getElementById('block').contentWindow.postMessage('go', '*')");
      await page.waitForTimeout(2_500);
      // No request is sent. (Chromium may open a TCP connection ahead of the frame-src check —
      // a preconnect carrying no bytes; CSP has no directive that stops it.)
      expect(listener.seen).toEqual([]);
      expect(page.frames().map((f) => f.url())).not.toContainEqual(
        expect.stringContaining(listener.origin),
      );
      await page.close();
    });
  },
);
