import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  chromiumPath,
  chromiumSuiteTitle,
  launchChromium,
  startEgressListener,
} from '../testing/fakes/chromium.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';

/**
 * Every egress a page can try, aimed at `target`: media, styles and refreshes that load by
 * themselves, and a script (which must not run: `#out` keeps saying "before").
 */
function hostileBlock(target: string, navigation: 'top' | 'self' | 'none'): string {
  const ws = target.replace('http:', 'ws:');
  return `<p id="out">before</p>
<form id="f" method="post" action="${target}/form"><input name="a" value="1"></form>
<img src="${target}/img.png" alt="">
<picture><source srcset="${target}/source.png"><img src="data:," alt=""></picture>
<video src="${target}/video.mp4" autoplay muted poster="${target}/poster.png"></video>
<audio src="${target}/audio.mp3" autoplay></audio>
<video autoplay muted><source src="${target}/source.mp4"><track src="${target}/track.vtt" default></video>
<object data="${target}/object"></object>
<embed src="${target}/embed">
<svg><image href="${target}/svg-image.png" width="1" height="1"></image></svg>
<div style="background-image: url('${target}/background.png'); width: 10px; height: 10px"></div>
<style>@import url('${target}/import.css'); @font-face { font-family: f; src: url('${target}/font.woff'); } p { font-family: f; }</style>
<link rel="stylesheet" href="${target}/style.css">
<link rel="preload" as="image" href="${target}/preload.png">
<link rel="prefetch" href="${target}/prefetch">
<link rel="icon" href="${target}/favicon.ico">
<meta http-equiv="refresh" content="0; url=${target}/refresh">
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
 * Behaviour rule 20 as Hearth issue #27 tightens it: an html block renders in a sandboxed iframe
 * that runs none of its scripts (webrtc.chromium.test.ts shows why), and no request of any kind
 * leaves it, media included. The host page stands in for the web client at the gateway's origin, with
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
          body: `<!doctype html><iframe id="block" sandbox="" src="/canvas/frame/${id}"></iframe>`,
        }),
      );
      await page.goto(hostUrl);
      return page;
    }

    it('renders the block, runs none of its script, and loads no image, media, style, font, object or refresh', async () => {
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
        .toBe('before');
      await page.evaluate("document.getElementById('block').contentWindow.postMessage('go', '*')");
      // Give every attempt time to reach the listener, had it been allowed to.
      await page.waitForTimeout(2_500);
      expect(await frame.locator('#out').textContent()).toBe('before');
      expect(listener.seen).toEqual([]);
      expect(listener.connections).toEqual([]);
      expect(page.url()).toBe(`${gw.url}/canvas-sandbox-host`);
      expect(page.frames().map((f) => f.url())).not.toContainEqual(
        expect.stringContaining(listener.origin),
      );
      expect(await page.locator('#block').getAttribute('sandbox')).toBe('');
      await page.close();
    });

    it('keeps the block sandboxed when its page is opened directly, outside any frame', async () => {
      const response = await fetch(`${gw.url}/api/v1/canvas/render`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'html',
          content: hostileBlock(listener.origin, 'none'),
        }),
      });
      const { id } = (await response.json()) as { id: string };
      const page = await browser.newPage();
      await page.goto(`${gw.url}/canvas/frame/${id}`);
      await expect.poll(() => page.locator('#out').textContent()).toBe('before');
      // An opaque origin (read by the test's own evaluation, not the block's script): the page
      // could not read the gateway's API with the user's credentials.
      expect(await page.evaluate('self.origin')).toBe('null');
      // (No navigation attempt here: opened directly, the page is its own top.)
      await page.waitForTimeout(2_500);
      expect(await page.locator('#out').textContent()).toBe('before');
      expect(listener.seen).toEqual([]);
      expect(listener.connections).toEqual([]);
      await page.close();
    });

    it('does not navigate the frame away: neither its script nor a meta refresh runs', async () => {
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
        .toBe('before');
      await page.evaluate("document.getElementById('block').contentWindow.postMessage('go', '*')");
      await page.waitForTimeout(2_500);
      expect(listener.seen).toEqual([]);
      expect(listener.connections).toEqual([]);
      expect(page.frames().map((f) => f.url())).not.toContainEqual(
        expect.stringContaining(listener.origin),
      );
      await page.close();
    });
  },
);
