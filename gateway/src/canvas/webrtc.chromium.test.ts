import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chromiumPath, chromiumSuiteTitle, launchChromium } from '../testing/fakes/chromium.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';
import { startIceListener } from './testing/ice-listener.ts';

type IceServers = Awaited<ReturnType<typeof startIceListener>>['iceServers'];

/**
 * A block whose script opens a WebRTC peer connection naming `iceServers`, from its own window,
 * from a fresh about:blank iframe, from a `srcdoc` iframe with its own script (a fresh window
 * that a script deleting `RTCPeerConnection` first would not reach) and from a popup.
 */
function webrtcBlock(iceServers: IceServers): string {
  const connect = `function connect(w) {
  const pc = new w.RTCPeerConnection({ iceServers: ${JSON.stringify(iceServers)} });
  pc.createDataChannel('x');
  pc.createOffer().then((offer) => pc.setLocalDescription(offer));
}`;
  const srcdoc = `<script>${connect}; connect(window);</script>`;
  return `<p id="out">before</p>
<script>
${connect}
const tried = [];
const attempts = {
  window: () => connect(window),
  iframe: () => {
    const f = document.createElement('iframe');
    document.body.appendChild(f);
    connect(f.contentWindow);
  },
  srcdoc: () => {
    const f = document.createElement('iframe');
    f.srcdoc = ${JSON.stringify(srcdoc).replaceAll('<', '\\u003c')};
    document.body.appendChild(f);
  },
  popup: () => connect(window.open('')),
};
for (const [name, attempt] of Object.entries(attempts)) {
  try { attempt(); tried.push(name); } catch { tried.push(name + ' failed'); }
}
document.getElementById('out').textContent = 'script ran: ' + tried.join(', ');
</script>`;
}

/**
 * Hearth issue #27: an html block reaches no host through WebRTC, which no CSP governs. The
 * control serves the same block at the gateway's origin without the canvas's protections and
 * sees the listener reached, so the test measures the wall and not a quiet listener.
 */
describe.skipIf(!chromiumPath)(
  chromiumSuiteTitle('canvas html block WebRTC'),
  { timeout: 90_000 },
  () => {
    let gw: TestGateway;
    let browser: Browser;
    let ice: Awaited<ReturnType<typeof startIceListener>>;
    beforeAll(async () => {
      gw = await startTestGateway();
      await gw.gateway.whenReady();
      ice = await startIceListener();
    });
    beforeEach(async () => {
      browser = await launchChromium();
      ice.reset();
    });
    afterEach(async () => {
      await browser?.close();
    });
    afterAll(async () => {
      await ice?.close();
      await gw?.close();
    });

    async function render(content: string): Promise<string> {
      const response = await fetch(`${gw.url}/api/v1/canvas/render`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'html', content }),
      });
      return ((await response.json()) as { id: string }).id;
    }

    /** A page at `path` on the gateway's origin serving `body` with `csp` (if any). */
    async function servedPage(path: string, body: string, csp?: string): Promise<Page> {
      const page = await browser.newPage();
      const url = `${gw.url}${path}`;
      await page.route(url, (route) =>
        route.fulfill({
          contentType: 'text/html',
          headers: csp ? { 'content-security-policy': csp } : {},
          body,
        }),
      );
      await page.goto(url);
      return page;
    }

    it('control: the same block outside the canvas sends STUN over UDP and TURN over TCP to the listener', async () => {
      const page = await servedPage(
        '/webrtc-control',
        `<!doctype html><body>${webrtcBlock(ice.iceServers)}</body>`,
      );
      await expect
        .poll(() => page.locator('#out').textContent())
        .toBe('script ran: window, iframe, srcdoc, popup');
      await expect.poll(() => ice.datagrams.length, { timeout: 10_000 }).toBeGreaterThan(0);
      await expect.poll(() => ice.connections.length, { timeout: 10_000 }).toBeGreaterThan(0);
      await page.close();
    });

    it('control: scripts with WebRTC deleted, nested frames and popups refused still reach it through a srcdoc frame', async () => {
      // Why html blocks run no script: the strongest wall short of that (the frame's former
      // policy with scripts, frame-src 'none', no popups, RTCPeerConnection deleted before the
      // block runs) leaves the srcdoc frame's fresh window, and CSP does not govern WebRTC.
      const poison = `<script>for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection']) delete window[name];</script>`;
      const page = await servedPage(
        '/webrtc-poisoned',
        `<!doctype html><head>${poison}</head><body>${webrtcBlock(ice.iceServers)}</body>`,
        "default-src 'none'; script-src 'unsafe-inline'; frame-src 'none'; child-src 'none'; webrtc 'block'; sandbox allow-scripts",
      );
      await expect
        .poll(() => page.locator('#out').textContent())
        .toBe('script ran: window failed, iframe failed, srcdoc, popup failed');
      await expect.poll(() => ice.datagrams.length, { timeout: 10_000 }).toBeGreaterThan(0);
      await page.close();
    });

    for (const sandbox of ['', 'allow-scripts']) {
      it(`framed in <iframe sandbox="${sandbox}">, the block reaches neither listener by any window`, async () => {
        // sandbox="" is how the web client frames it; allow-scripts stands for an older client:
        // the frame page's own policy holds either way.
        const id = await render(webrtcBlock(ice.iceServers));
        const page = await servedPage(
          '/webrtc-host',
          `<!doctype html><iframe id="block" sandbox="${sandbox}" src="/canvas/frame/${id}"></iframe>`,
          "default-src 'self'; frame-src 'self'",
        );
        const frame = page.frameLocator('#block');
        await expect.poll(() => frame.locator('#out').textContent()).toBe('before');
        await page.waitForTimeout(5_000);
        expect(await frame.locator('#out').textContent()).toBe('before');
        expect(ice.datagrams).toEqual([]);
        expect(ice.connections).toEqual([]);
        await page.close();
      });
    }

    it('opened directly, outside any frame, the block reaches neither listener', async () => {
      const id = await render(webrtcBlock(ice.iceServers));
      const page = await browser.newPage();
      await page.goto(`${gw.url}/canvas/frame/${id}`);
      await expect.poll(() => page.locator('#out').textContent()).toBe('before');
      await page.waitForTimeout(5_000);
      expect(await page.locator('#out').textContent()).toBe('before');
      expect(ice.datagrams).toEqual([]);
      expect(ice.connections).toEqual([]);
      await page.close();
    });
  },
);
