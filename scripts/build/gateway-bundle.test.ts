/**
 * The gateway's built bundle (dist/, as `npm start` runs it), in its own process: what it loads
 * on first use (load-on-first-use.ts: mime-types, mime-db, qs) is there when a reply needs it.
 * Replies that name their type through mime-types (the web client's files, the API reference,
 * Prometheus text, errors) carry the types they carried when those packages loaded at start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const entry = join(root, 'dist/gateway/src/main.js');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.skipIf(!existsSync(entry))(
  'the built gateway bundle — skipped when dist/ is not built (npm install builds it)',
  () => {
    let home: string;
    let child: ChildProcess;
    let base: string;

    beforeAll(async () => {
      home = await mkdtemp(join(tmpdir(), 'hearth-bundle-run-'));
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      const env: NodeJS.ProcessEnv = { ...process.env, HEARTH_HOME: home };
      delete env.HEARTH_CONFIG;
      child = spawn(process.execPath, [entry, '--port', String(port)], {
        env,
        stdio: 'ignore',
      });
      const deadline = Date.now() + 30_000;
      for (;;) {
        const ready = await fetch(`${base}/ready`).then(
          (response) => response.status,
          () => 0,
        );
        if (ready === 200) break;
        if (Date.now() > deadline || child.exitCode !== null) throw new Error('not ready');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }, 40_000);
    afterAll(async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      await rm(home, { recursive: true, force: true });
    });

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
