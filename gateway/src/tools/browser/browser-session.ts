import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import type { Browser, BrowserContext, BrowserType, Page } from 'playwright-core';
import { HearthError } from '../../errors.ts';
import type { Logger } from '../../observability/logger.ts';
import { CHROMIUM_ARGS, DEFAULT_CHROMIUM_PATHS } from '../../config/chromium.ts';
import { featureOffReason, importOptional } from '../../models/optional-packages.ts';

export { CHROMIUM_ARGS, DEFAULT_CHROMIUM_PATHS };

export interface BrowserControllerOptions {
  /** The browser binary; default: the first of DEFAULT_CHROMIUM_PATHS that exists. */
  executablePath?: string;
  /** The browser's whole environment, already sanitised (no provider keys, no secrets). */
  env: Record<string, string>;
  /** Where screenshots are written (created 0700 on first use). */
  screenshotDir: string;
  logger: Logger;
  /** Close the browser after this long without use. */
  idleCloseMs?: number;
  /** Limit for starting the browser. */
  launchTimeoutMs?: number;
  /** Sessions kept open at once; the least recently used one is closed past this. */
  maxSessions?: number;
}

export interface BrowserAvailability {
  ok: boolean;
  detail: string;
}

export interface BrowserController {
  readonly screenshotDir: string;
  /** Whether a browser binary is there (and, after a failed start, why it failed). */
  available(): Promise<BrowserAvailability>;
  /**
   * Runs `fn` with the session's page, launching the browser and opening the session's
   * context (own cookies and storage) as needed. Calls for one session run one at a time.
   * Throws HearthError('unavailable') when there is no browser.
   */
  withPage<T>(sessionId: string, fn: (page: Page) => Promise<T>): Promise<T>;
  /** Closes one session's context (its cookies go with it). */
  closeSession(sessionId: string): Promise<void>;
  /** Whether the browser process is running now. */
  running(): boolean;
  /** Closes the browser; a later call launches it again. */
  close(): Promise<void>;
}

interface SessionState {
  context: BrowserContext;
  page: Page;
  /** Tail of this session's queue of calls. */
  queue: Promise<unknown>;
  lastUsed: number;
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function message(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
}

/**
 * One lazily launched headless Chromium (playwright-core driving the system's browser), one
 * browser context per session id (cookies isolated between sessions) and one current page per
 * context. The browser is closed after `idleCloseMs` without use and relaunched on demand.
 *
 * Playwright's own SIGINT/SIGTERM/SIGHUP handlers are turned off (its SIGINT handler exits the
 * process): the gateway's shutdown calls `close()`. If the gateway dies without that, the
 * browser still exits, since it is driven over a pipe that closes with its parent.
 */
export function createBrowserController(options: BrowserControllerOptions): BrowserController {
  const idleCloseMs = options.idleCloseMs ?? 60_000;
  const launchTimeoutMs = options.launchTimeoutMs ?? 30_000;
  const maxSessions = options.maxSessions ?? 16;
  const logger = options.logger;

  let browser: Browser | undefined;
  let launching: Promise<Browser> | undefined;
  let lastLaunchError: string | undefined;
  const sessions = new Map<string, SessionState>();
  const opening = new Map<string, Promise<SessionState>>();
  let busy = 0;
  let idleTimer: NodeJS.Timeout | undefined;

  async function resolveExecutable(): Promise<{ path: string } | { missing: string }> {
    const off = featureOffReason('browser');
    if (off !== null) return { missing: off };
    if (options.executablePath !== undefined) {
      return (await isExecutable(options.executablePath))
        ? { path: options.executablePath }
        : {
            missing:
              `No browser at ${options.executablePath}. Install Chromium ` +
              '(`apt-get install chromium`) or configure the browser executable path.',
          };
    }
    for (const candidate of DEFAULT_CHROMIUM_PATHS) {
      if (await isExecutable(candidate)) return { path: candidate };
    }
    return {
      missing:
        `No Chromium found (looked for ${DEFAULT_CHROMIUM_PATHS.join(', ')}). ` +
        'Install it with `apt-get install chromium`.',
    };
  }

  function clearIdleTimer(): void {
    if (idleTimer !== undefined) clearTimeout(idleTimer);
    idleTimer = undefined;
  }

  function armIdleTimer(): void {
    clearIdleTimer();
    if (!browser || busy > 0) return;
    idleTimer = setTimeout(() => {
      idleTimer = undefined;
      if (busy > 0 || !browser) return;
      logger.debug({ idleCloseMs }, 'closing idle browser');
      void shutdown();
    }, idleCloseMs);
    idleTimer.unref();
  }

  async function launch(): Promise<Browser> {
    const found = await resolveExecutable();
    if ('missing' in found) throw new HearthError('unavailable', found.missing);
    const started = performance.now();
    try {
      // playwright-core (~60 MB, ~400 ms to import) loads with the first browser use.
      const { chromium } = await importOptional<{ chromium: BrowserType }>(
        'playwright-core',
        'browser',
      );
      const launched = await chromium.launch({
        executablePath: found.path,
        headless: true,
        args: [...CHROMIUM_ARGS],
        env: { ...options.env },
        timeout: launchTimeoutMs,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
      lastLaunchError = undefined;
      launched.on('disconnected', () => {
        if (browser === launched) {
          browser = undefined;
          sessions.clear();
          opening.clear();
          clearIdleTimer();
        }
      });
      logger.info(
        { executablePath: found.path, ms: Math.round(performance.now() - started) },
        'browser launched',
      );
      return launched;
    } catch (error) {
      lastLaunchError = `Chromium at ${found.path} failed to start: ${message(error)}`;
      logger.warn({ err: message(error), executablePath: found.path }, 'browser launch failed');
      throw new HearthError('unavailable', lastLaunchError, { cause: error });
    }
  }

  async function ensureBrowser(): Promise<Browser> {
    if (browser?.isConnected()) return browser;
    launching ??= launch()
      .then((launched) => {
        browser = launched;
        return launched;
      })
      .finally(() => {
        launching = undefined;
      });
    return launching;
  }

  async function evictIfFull(): Promise<void> {
    while (sessions.size >= maxSessions) {
      let oldest: [string, SessionState] | undefined;
      for (const entry of sessions) {
        if (!oldest || entry[1].lastUsed < oldest[1].lastUsed) oldest = entry;
      }
      if (!oldest) return;
      sessions.delete(oldest[0]);
      await oldest[1].context.close().catch(() => undefined);
    }
  }

  async function openSession(sessionId: string): Promise<SessionState> {
    const owner = await ensureBrowser();
    await evictIfFull();
    const context = await owner.newContext({
      acceptDownloads: false,
      serviceWorkers: 'block',
      viewport: { width: 1280, height: 800 },
    });
    const state: SessionState = {
      context,
      page: await context.newPage(),
      queue: Promise.resolve(),
      lastUsed: Date.now(),
    };
    // A link or script that opens a new tab moves the session to it.
    context.on('page', (page) => {
      state.page = page;
      page.on('close', () => {
        const remaining = context.pages();
        const last = remaining[remaining.length - 1];
        if (state.page === page && last) state.page = last;
      });
    });
    if (browser === owner) sessions.set(sessionId, state);
    return state;
  }

  async function session(sessionId: string): Promise<SessionState> {
    const existing = sessions.get(sessionId);
    if (existing && browser?.isConnected()) return existing;
    let pending = opening.get(sessionId);
    if (!pending) {
      pending = openSession(sessionId).finally(() => opening.delete(sessionId));
      opening.set(sessionId, pending);
    }
    return pending;
  }

  async function shutdown(): Promise<void> {
    clearIdleTimer();
    const current = browser ?? (launching ? await launching.catch(() => undefined) : undefined);
    browser = undefined;
    sessions.clear();
    opening.clear();
    if (current) {
      await current.close().catch((error: unknown) => {
        logger.warn({ err: message(error) }, 'browser close failed');
      });
      logger.debug('browser closed');
    }
  }

  return {
    screenshotDir: options.screenshotDir,

    async available() {
      const found = await resolveExecutable();
      if ('missing' in found) return { ok: false, detail: found.missing };
      if (browser?.isConnected()) {
        return { ok: true, detail: `Chromium ${browser.version()} running (${found.path})` };
      }
      if (lastLaunchError !== undefined) return { ok: false, detail: lastLaunchError };
      return { ok: true, detail: `Chromium found at ${found.path} (starts on first use)` };
    },

    async withPage<T>(sessionId: string, fn: (page: Page) => Promise<T>): Promise<T> {
      busy += 1;
      clearIdleTimer();
      try {
        const state = await session(sessionId);
        const run = state.queue.then(async () => {
          state.lastUsed = Date.now();
          // A crashed or closed page is replaced; the context (cookies) is kept.
          if (state.page.isClosed()) state.page = await state.context.newPage();
          return fn(state.page);
        });
        state.queue = run.catch(() => undefined);
        return await run;
      } finally {
        busy -= 1;
        armIdleTimer();
      }
    },

    async closeSession(sessionId) {
      const state = sessions.get(sessionId);
      sessions.delete(sessionId);
      if (state) await state.context.close().catch(() => undefined);
    },

    running() {
      return browser?.isConnected() ?? false;
    },

    close: shutdown,
  };
}
