import { accessSync, constants, existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import { createBrowserController, DEFAULT_CHROMIUM_PATHS } from './browser-session.ts';
import type { BrowserController } from './browser-session.ts';
import { browserTool } from './browser-tool.ts';
import type { BrowserTool } from './browser-tool.ts';

// Real headless Chromium against pages served on 127.0.0.1 (CI installs it with apt-get).
const chromiumPath = DEFAULT_CHROMIUM_PATHS.find((path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
});
const suiteTitle = chromiumPath
  ? `browser tool in headless Chromium (${chromiumPath})`
  : `browser tool in headless Chromium — skipped: no Chromium at ${DEFAULT_CHROMIUM_PATHS.join(
      ', ',
    )} (apt-get install chromium)`;

const PAGE = `<!doctype html>
<html><head><title>Hearth test page</title></head>
<body>
  <nav>Menu that is not the article</nav>
  <article>
    <h1>Fox report</h1>
    <p>The   quick brown
       fox jumps over the lazy dog.</p>
  </article>
  <form onsubmit="return false">
    <input id="name" name="name">
    <button id="go" type="button"
      onclick="document.title = 'Hello, ' + document.getElementById('name').value">Go</button>
    <button id="hidden" type="button" style="display:none">Hidden</button>
  </form>
</body></html>`;

function startServer(): Promise<Server> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    res.setHeader('content-type', 'text/html; charset=utf-8');
    if (path === '/') {
      res.end(PAGE);
    } else if (path === '/set-cookie') {
      res.setHeader('set-cookie', 'hearth_sid=session-a-cookie; Path=/; HttpOnly');
      res.end('<title>cookie set</title><body>cookie set</body>');
    } else if (path === '/cookie') {
      const cookie = req.headers.cookie ?? 'no cookie';
      res.end(`<title>cookie</title><body><main>cookie: ${cookie}</main></body>`);
    } else if (path === '/long') {
      res.end(`<title>long</title><body><p>${'word '.repeat(10_000)}</p></body>`);
    } else {
      res.statusCode = 404;
      res.end('<title>not found</title><body>nothing here</body>');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

interface ChromiumProcess {
  pid: number;
  ppid: number;
  args: string[];
  env: string[];
}

/**
 * Chromium processes descended from this one, found by scanning /proc: `chromium.launch()`
 * exposes no pid (`browser.process()` exists only for launchServer/persistent contexts).
 */
function chromiumDescendants(): ChromiumProcess[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …; comm may hold spaces or parentheses, so split after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parentOf.set(Number(entry), ppid);
    } catch {
      // the process ended while we looked
    }
  }
  const isDescendant = (pid: number): boolean => {
    for (let p = parentOf.get(pid); p !== undefined && p > 1; p = parentOf.get(p)) {
      if (p === process.pid) return true;
    }
    return false;
  };
  const found: ChromiumProcess[] = [];
  for (const pid of parentOf.keys()) {
    if (!isDescendant(pid)) continue;
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (!/chrom/i.test(args[0] ?? '')) continue;
      const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
      found.push({ pid, ppid: parentOf.get(pid) ?? 0, args, env });
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const TIMEOUT_MS = 2_000;

describe.skipIf(!chromiumPath)(suiteTitle, () => {
  let server: Server;
  let base: string;
  let dir: string;
  let controller: BrowserController;
  let tool: BrowserTool;
  const secret = `hearth-secret-${process.pid}-${Date.now()}`;

  beforeAll(async () => {
    // A secret in this process's environment, which the browser must not inherit.
    process.env.SECRET_TOKEN = secret;
    server = await startServer();
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    dir = await mkdtemp(join(tmpdir(), 'hearth-browser-'));
    controller = createBrowserController({
      executablePath: chromiumPath,
      env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: dir, HEARTH_BROWSER_MARK: 'sanitised' },
      screenshotDir: join(dir, 'shots'),
      logger: silentLogger(),
    });
    tool = browserTool(controller, { timeoutMs: TIMEOUT_MS });
  });

  afterAll(async () => {
    delete process.env.SECRET_TOKEN;
    await controller?.close();
    await new Promise((resolve) => server?.close(resolve));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reports Chromium as available', async () => {
    const availability = await controller.available();
    expect(availability).toEqual({ ok: true, detail: expect.stringContaining(chromiumPath!) });
  });

  it('navigates and returns the title and the article text, whitespace collapsed', async () => {
    const answer = await tool.execute(
      { sessionId: 'a', channel: 'test' },
      {
        action: 'navigate',
        url: `${base}/`,
      },
    );
    expect(answer).toBe(
      [
        'Title: Hearth test page',
        `URL: ${base}/`,
        '',
        'Fox report',
        '',
        'The quick brown fox jumps over the lazy dog.',
      ].join('\n'),
    );
    expect(answer).not.toContain('Menu that is not the article');
  });

  it('fills an input and clicks a button that changes the title', async () => {
    const session = { sessionId: 'a', channel: 'test' };
    expect(await tool.execute(session, { action: 'fill', selector: '#name', value: 'Ada' })).toBe(
      `OK: filled #name (3 characters). Page: "Hearth test page" at ${base}/`,
    );
    expect(await tool.execute(session, { action: 'click', selector: '#go' })).toBe(
      `OK: clicked #go. Page now: "Hello, Ada" at ${base}/`,
    );
  });

  it('writes a PNG screenshot, mode 0600', async () => {
    const answer = await tool.execute(
      { sessionId: 'a', channel: 'test' },
      {
        action: 'screenshot',
        full_page: true,
      },
    );
    const match = /^Screenshot saved: (\S+\.png) \(PNG, (\d+) bytes, full page\) of /.exec(answer);
    expect(match, answer).not.toBeNull();
    const path = match![1]!;
    expect(path.startsWith(join(dir, 'shots'))).toBe(true);
    const info = await stat(path);
    expect(info.size).toBe(Number(match![2]));
    expect(info.size).toBeGreaterThan(2_000);
    expect(info.mode & 0o777).toBe(0o600);
    const handle = await open(path, 'r');
    const head = Buffer.alloc(8);
    await handle.read(head, 0, 8, 0);
    await handle.close();
    expect([...head]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  });

  it('keeps cookies apart between sessions', async () => {
    const a = { sessionId: 'cookie-a', channel: 'test' };
    const b = { sessionId: 'cookie-b', channel: 'test' };
    await tool.execute(a, { action: 'navigate', url: `${base}/set-cookie` });
    expect(await tool.execute(a, { action: 'navigate', url: `${base}/cookie` })).toContain(
      'cookie: hearth_sid=session-a-cookie',
    );
    const seenByB = await tool.execute(b, { action: 'navigate', url: `${base}/cookie` });
    expect(seenByB).toContain('cookie: no cookie');
    expect(seenByB).not.toContain('session-a-cookie');
  });

  it('refuses non-web URL schemes', async () => {
    for (const url of [
      'file:///etc/passwd',
      'chrome://version',
      'javascript:alert(1)',
      'data:text/html,<title>x</title>',
    ]) {
      const answer = await tool.execute(
        { sessionId: 'a', channel: 'test' },
        {
          action: 'navigate',
          url,
        },
      );
      expect(answer).toMatch(/^Error: The browser only opens http:\/\/ and https:\/\/ URLs/);
    }
  });

  it('answers a missing selector with a readable error within the timeout', async () => {
    const started = Date.now();
    const answer = await tool.execute(
      { sessionId: 'a', channel: 'test' },
      {
        action: 'click',
        selector: '#does-not-exist',
      },
    );
    const elapsed = Date.now() - started;
    expect(answer).toBe(
      'Error: click #does-not-exist failed: no element matches #does-not-exist (waited 2 s).',
    );
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 3_000);
  });

  it('says when an element is there but not ready', async () => {
    const answer = await tool.execute(
      { sessionId: 'a', channel: 'test' },
      {
        action: 'click',
        selector: '#hidden',
      },
    );
    expect(answer).toMatch(
      /^Error: click #hidden timed out after 2 s: the element is there but not ready \(element is not visible\)\.$/,
    );
  });

  it('reports unreachable pages and HTTP errors readably', async () => {
    const closed = await startServer();
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await tool.execute(
      { sessionId: 'a', channel: 'test' },
      {
        action: 'navigate',
        url: `http://127.0.0.1:${port}/`,
      },
    );
    expect(refused).toMatch(
      /^Error: navigate to http:\/\/127\.0\.0\.1:\d+\/ failed: .*ERR_CONNECTION_REFUSED/,
    );
    expect(refused.split('\n')).toHaveLength(1);
    const missing = await tool.execute(
      { sessionId: 'a', channel: 'test' },
      {
        action: 'navigate',
        url: `${base}/nope`,
      },
    );
    expect(missing).toContain('[HTTP 404]');
  });

  it('caps long page text with a note', async () => {
    const answer = await tool.execute(
      { sessionId: 'a', channel: 'test' },
      {
        action: 'navigate',
        url: `${base}/long`,
      },
    );
    expect(answer).toMatch(/\n\[… 29999 more characters not shown\]$/);
  });

  it('starts the browser with only the sanitised environment', async () => {
    await tool.execute(
      { sessionId: 'env', channel: 'test' },
      { action: 'navigate', url: `${base}/` },
    );
    expect(controller.running()).toBe(true);
    const processes = chromiumDescendants();
    // The browser process proper is our direct child; its helpers (zygote, renderers, GPU,
    // network) are forked from it and overwrite their environ area with their long argv.
    const main = processes.filter(
      (p) => p.ppid === process.pid && p.env.includes('HEARTH_BROWSER_MARK=sanitised'),
    );
    expect(main).toHaveLength(1); // found, so the env we passed reached it
    expect(main[0]!.env.some((line) => line.startsWith('SECRET_TOKEN='))).toBe(false);
    for (const flag of [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ]) {
      expect(main[0]!.args).toContain(flag);
    }
    // A fresh profile: Playwright's own temporary --user-data-dir.
    expect(main[0]!.args.find((a) => a.startsWith('--user-data-dir='))).toMatch(
      /^--user-data-dir=.*playwright_chromiumdev_profile-\w+$/,
    );
    expect(processes.length).toBeGreaterThan(1);
    for (const { env } of processes) {
      expect(env.some((line) => line.includes(secret))).toBe(false);
    }
  });

  it('closes the browser when idle and starts it again on demand', async () => {
    const idle = createBrowserController({
      executablePath: chromiumPath,
      env: { PATH: '/usr/bin:/bin', HOME: dir, HEARTH_BROWSER_MARK: 'idle' },
      screenshotDir: join(dir, 'shots'),
      logger: silentLogger(),
      idleCloseMs: 300,
    });
    const idleTool = browserTool(idle, { timeoutMs: TIMEOUT_MS });
    try {
      const session = { sessionId: 'idle', channel: 'test' };
      expect(await idleTool.execute(session, { action: 'navigate', url: `${base}/` })).toContain(
        'Title: Hearth test page',
      );
      expect(idle.running()).toBe(true);
      const idleBrowser = () =>
        chromiumDescendants().filter((p) => p.env.includes('HEARTH_BROWSER_MARK=idle'));
      const [first] = idleBrowser();
      const profile = first?.args.find((a) => a.startsWith('--user-data-dir='))?.split('=')[1];
      expect(profile).toBeDefined();
      expect(existsSync(profile!)).toBe(true);
      for (let waited = 0; idle.running() && waited < 5_000; waited += 100) await sleep(100);
      expect(idle.running()).toBe(false);
      // The process exits and its profile is deleted (closing goes on in the background).
      for (let waited = 0; existsSync(profile!) && waited < 5_000; waited += 100) await sleep(100);
      expect(idleBrowser()).toEqual([]);
      expect(existsSync(profile!)).toBe(false);
      expect(await idleTool.execute(session, { action: 'navigate', url: `${base}/` })).toContain(
        'Title: Hearth test page',
      );
    } finally {
      await idle.close();
    }
    expect(idle.running()).toBe(false);
  });
});
