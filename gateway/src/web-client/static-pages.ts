import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import compression from 'compression';
import express, { type Router } from 'express';
import type { PublicPages } from '../http/pages.ts';

/**
 * The client's policy: its own scripts, styles and workers only (no inline script, no
 * third-party origin), images from itself or data: URLs, requests and sockets to the gateway
 * only, frames from the gateway only (html canvas blocks; a block cannot navigate its frame
 * anywhere else), never framed itself.
 */
export const CLIENT_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/** Hashed build output: the name changes with the content, so it may be cached for a year. */
const HASHED = /^\/assets\/[\w.-]+-[\w-]{8,}\.(js|css|svg|png|woff2?)$/;

/** Every file under `dir` as a URL path (`/index.html`, `/assets/index-abc.js`). */
async function listFiles(dir: string): Promise<Set<string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return new Set(
    entries
      .filter((entry) => entry.isFile())
      .map((entry) => `/${relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/')}`),
  );
}

export interface WebClientPages extends PublicPages {
  /** Reads the build's file list; false when there is no build. */
  load(): Promise<boolean>;
}

/**
 * Serves the built client at `/`: exactly the files the build produced (listed once at start,
 * so no other path is ever public), gzip-compressed, `index.html`, the service worker and the
 * manifest revalidated on every load, hashed assets immutable. Without a build `/` answers 503
 * saying how to make one.
 */
export function webClientPages(assetsDir: string | undefined): WebClientPages {
  let files = new Set<string>();
  const router: Router = express.Router({ caseSensitive: true, strict: true });
  const isPublic = (path: string) => path === '/' || files.has(path);
  router.use((req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !isPublic(req.path)) return next();
    if (assetsDir === undefined || files.size === 0) {
      res.status(503).json({ detail: 'The web client is not built: run `npm run build`' });
      return;
    }
    res.set('Content-Security-Policy', CLIENT_CSP);
    res.set('Cross-Origin-Opener-Policy', 'same-origin');
    res.set('Cross-Origin-Resource-Policy', 'same-origin');
    res.set('Permissions-Policy', 'camera=(), geolocation=(), microphone=(self)');
    next();
  });
  router.use(compression());
  if (assetsDir !== undefined) {
    const serve = express.static(assetsDir, {
      index: 'index.html',
      redirect: false,
      dotfiles: 'ignore',
      fallthrough: true,
      setHeaders(res, path) {
        const urlPath = `/${relative(assetsDir, path).split(sep).join('/')}`;
        res.setHeader(
          'Cache-Control',
          HASHED.test(urlPath) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
        if (urlPath === '/sw.js') res.setHeader('Service-Worker-Allowed', '/');
      },
    });
    router.use((req, res, next) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || !isPublic(req.path)) return next();
      serve(req, res, next);
    });
  }
  return {
    isPublic,
    router,
    async load() {
      if (assetsDir === undefined) return false;
      try {
        files = await listFiles(assetsDir);
      } catch {
        files = new Set();
      }
      return files.has('/index.html');
    },
  };
}
