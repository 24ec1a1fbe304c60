import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { rawRequest } from '../testing/fakes/raw-request.ts';
import { docsRouter } from './docs.ts';
import { errorHandler, notFoundHandler } from './middleware/errors.ts';

const document = () => ({ openapi: '3.1.0', info: { title: 'Hearth', version: '0' }, paths: {} });

/** The docs routes with the app's own error mapper, over a ReDoc folder of the test's. */
async function serve(redocDir: string) {
  const app = express();
  app.use(docsRouter(document, redocDir));
  app.use(notFoundHandler());
  app.use(errorHandler(pino({ level: 'silent' })));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const port = (server.address() as AddressInfo).port;
  return { url, port, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('/redoc', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });
  async function redocFolder(withBundle: boolean): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-redoc-route-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    if (withBundle) {
      await mkdir(join(dir, 'bundles'));
      await writeFile(join(dir, 'bundles', 'redoc.standalone.js'), '/* ReDoc */');
    }
    return dir;
  }

  it('serves the page and the bundle the build put in place', async () => {
    const docs = await serve(await redocFolder(true));
    cleanup.push(docs.close);
    const page = await fetch(`${docs.url}/redoc`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script src="/redoc/redoc.standalone.js">');
    const bundle = await fetch(`${docs.url}/redoc/redoc.standalone.js`);
    expect(bundle.status).toBe(200);
    expect(await bundle.text()).toBe('/* ReDoc */');
  });

  it('answers 503 with the reason and the fix when the build has no bundle', async () => {
    const docs = await serve(await redocFolder(false));
    cleanup.push(docs.close);
    for (const path of ['/redoc', '/redoc/redoc.standalone.js']) {
      const res = await fetch(`${docs.url}${path}`);
      expect(res.status, path).toBe(503);
      const body = (await res.json()) as { detail: string };
      expect(body.detail).toMatch(/ReDoc's bundle is missing .*npm run build/);
    }
    // The reference itself stays available.
    expect((await fetch(`${docs.url}/openapi.json`)).status).toBe(200);
  });

  it('never serves a file outside the bundle folder', async () => {
    const dir = await redocFolder(true);
    await writeFile(join(dir, 'release.json'), '{"secret":true}');
    const docs = await serve(dir);
    cleanup.push(docs.close);
    for (const path of [
      '/redoc/../release.json',
      '/redoc/%2e%2e/release.json',
      '/redoc/..%2frelease.json',
      '/redoc/release.json',
      '/redoc/bundles/../../release.json',
      '/redoc/%2e%2e%2frelease.json',
    ]) {
      // As sent, not normalised by a client.
      const res = await rawRequest(docs.port, path);
      expect(res.status, path).not.toBe(200);
      expect(res.body, path).not.toContain('secret');
    }
  });
});
