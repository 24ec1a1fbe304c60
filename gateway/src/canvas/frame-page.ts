import express, { type Router } from 'express';
import type { PublicPages } from '../http/pages.ts';
import type { CanvasService } from './service.ts';

/**
 * The policy of an html block's page: the block's HTML and inline styles render, and nothing
 * runs, loads or leaves. No script runs (`script-src 'none'` and a `sandbox` without
 * `allow-scripts`): Chromium has no switch that keeps a script from WebRTC — CSP does not govern
 * it (it ignores `webrtc 'block'`), and a script that deleted `RTCPeerConnection` first is beaten
 * by a `srcdoc` iframe, whose fresh window `frame-src 'none'` does not stop — so a block script
 * could make the viewer's browser send STUN/TURN packets to any host. No external image, font,
 * media or frame (`default-src 'none'`, images from data: only), no form submission
 * (`form-action 'none'`), no `<base>`; the page may be framed by the gateway's own pages only,
 * and the sandbox gives it an opaque origin without top navigation, popups or same-origin access
 * even when opened directly. The client's `<iframe sandbox="">` applies the same sandbox from
 * outside.
 */
export const FRAME_CSP = [
  "default-src 'none'",
  "script-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src data:',
  "connect-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
  "manifest-src 'none'",
  "frame-ancestors 'self'",
  'sandbox',
].join('; ');

/** What `GET /canvas/status` says of html blocks' scripts: off, and why (they fail closed). */
export const HTML_SCRIPTS =
  'off: a block script could reach any host through WebRTC, which no content-security policy governs';

const FRAME_PATH =
  /^\/canvas\/frame\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function framePage(html: string): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head><body>\n${html}\n</body></html>\n`;
}

/**
 * `GET /canvas/frame/<block id>`: an html block as its own page under FRAME_CSP. It needs no
 * API key (an iframe cannot send one): the block's random id is the capability, and it is only
 * learnt from the canvas state, which does need the key.
 */
export function canvasFramePages(canvas: CanvasService): PublicPages {
  const router: Router = express.Router({ caseSensitive: true });
  router.get('/canvas/frame/:id', async (req, res) => {
    const block = FRAME_PATH.test(req.path) ? await canvas.htmlBlock(req.params.id) : undefined;
    res.set('Cache-Control', 'no-store');
    if (!block || typeof block.content !== 'string') {
      res.status(404).json({ detail: 'No such html block' });
      return;
    }
    res.set('Content-Security-Policy', FRAME_CSP);
    res.set('Cross-Origin-Resource-Policy', 'same-origin');
    res.type('html').send(framePage(block.content));
  });
  return { isPublic: (path) => FRAME_PATH.test(path), router };
}
