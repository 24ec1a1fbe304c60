/**
 * The gateway's built bundle (dist/, as `npm start` runs it), in its own process: what it loads
 * on first use (load-on-first-use.ts: mime-types, mime-db, qs) is there when a reply needs it.
 * Replies that name their type through mime-types (the web client's files, the API reference,
 * Prometheus text, errors) carry the types they carried when those packages loaded at start.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../../bench/process.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const entry = join(root, 'dist/gateway/src/main.js');

describe.skipIf(!existsSync(entry))(
  'the built gateway bundle — skipped when dist/ is not built (npm install builds it)',
  () => {
    let gateway: GatewayProcess;
    let base: string;

    beforeAll(async () => {
      gateway = await startGatewayProcess(entry);
      base = gateway.url;
    }, 40_000);
    afterAll(() => gateway.stop());

    const typeOf = async (path: string, init?: RequestInit) => {
      const response = await fetch(`${base}${path}`, init);
      await response.arrayBuffer();
      return `${response.status} ${response.headers.get('content-type')}`;
    };

    it('serves the web client and its scripts with their types', async () => {
      const page = await fetch(`${base}/`);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const script = /src="(\/[^"]+\.js)"/.exec(await page.text())?.[1];
      expect(script).toBeDefined();
      expect(await typeOf(script!)).toBe('200 text/javascript; charset=utf-8');
    });

    it('answers JSON, HTML, Prometheus text and errors with their types', async () => {
      expect(await typeOf('/health')).toBe('200 application/json; charset=utf-8');
      expect(await typeOf('/health', { method: 'HEAD' })).toBe(
        '200 application/json; charset=utf-8',
      );
      expect(await typeOf('/openapi.json')).toBe('200 application/json; charset=utf-8');
      expect(await typeOf('/redoc')).toBe('200 text/html; charset=utf-8');
      expect(await typeOf('/api/v1/metrics')).toMatch(/^200 text\/plain; version=0\.0\.4/);
      expect(await typeOf('/api/v1/no-such-thing')).toBe('404 application/json; charset=utf-8');
      expect(
        await typeOf('/api/v1/chat', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'message=hello',
        }),
      ).toBe('422 application/json; charset=utf-8');
    });
  },
);
