import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page, Response } from 'playwright-core';
import { HearthError } from '../../errors.ts';

export const DEFAULT_ACTION_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_TEXT_CHARS = 20_000;

export interface ActionOptions {
  timeoutMs?: number;
}

export interface NavigateResult {
  url: string;
  title: string;
  text: string;
  /** Characters of readable text left out past the cap (0 when none). */
  omittedChars: number;
}

export interface ScreenshotResult {
  path: string;
  bytes: number;
  fullPage: boolean;
}

export interface InteractionResult {
  /** e.g. `clicked #submit`. */
  done: string;
  title: string;
  url: string;
}

const ALLOWED_PROTOCOLS = new Set(['http:', 'https:']);

/** Parses a URL the browser may open: http(s) only. Throws HearthError('validation'). */
export function parseWebUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new HearthError('validation', `Not a valid URL: '${raw}'. Give a full http(s) URL.`);
  }
  if (!ALLOWED_PROTOCOLS.has(url.protocol)) {
    throw new HearthError(
      'validation',
      `The browser only opens http:// and https:// URLs, not '${url.protocol}' ones.`,
    );
  }
  return url;
}

/** Trims every line, collapses runs of spaces and blank lines. */
export function collapseWhitespace(text: string): string {
  const lines: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/[\s\u00a0]+/g, ' ').trim();
    if (line === '' && (lines.length === 0 || lines[lines.length - 1] === '')) continue;
    lines.push(line);
  }
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
}

/** Caps text at `max` characters, saying how much was left out. */
export function capText(text: string, max: number): { text: string; omittedChars: number } {
  if (text.length <= max) return { text, omittedChars: 0 };
  return {
    text: `${text.slice(0, max)}\n[… ${text.length - max} more characters not shown]`,
    omittedChars: text.length - max,
  };
}

// Runs in the page: the innerText of <main>, else of every <article>, else of <body>. A string
// so that the gateway's type checking (no DOM lib) does not see page-side code.
const READABLE_TEXT_SCRIPT = `(() => {
  const main = document.querySelector('main');
  if (main) return main.innerText;
  const articles = [...document.querySelectorAll('article')];
  if (articles.length > 0) return articles.map((a) => a.innerText).join('\\n\\n');
  return document.body ? document.body.innerText : '';
})()`;

/** The page's readable text, whitespace collapsed (not capped). */
export async function readableText(page: Page): Promise<string> {
  const raw: unknown = await page.evaluate(READABLE_TEXT_SCRIPT);
  return collapseWhitespace(typeof raw === 'string' ? raw : '');
}

const ERROR_PAGE = /^chrome-error:/;

/** Resolves when the main frame next commits a URL that `accept`s, or after `timeout`. */
async function nextCommit(page: Page, accept: (url: string) => boolean, timeout: number) {
  await page
    .waitForEvent('framenavigated', {
      predicate: (frame) => frame === page.mainFrame() && accept(frame.url()),
      timeout: Math.max(1, timeout),
    })
    .catch(() => undefined);
}

/**
 * page.goto, made safe to follow a failed load: Chromium commits its error page for a network
 * error only after goto has thrown, and that late commit reports the next goto as
 * "interrupted" although it goes on. So after a network error we wait for the error page,
 * and an interrupted goto is waited for rather than started again.
 */
async function goto(page: Page, href: string, timeout: number): Promise<Response | null> {
  const started = Date.now();
  const left = () => timeout - (Date.now() - started);
  try {
    return await page.goto(href, { waitUntil: 'domcontentloaded', timeout });
  } catch (error) {
    const text = error instanceof Error ? error.message : '';
    if (/net::ERR_/.test(text) && !/ERR_ABORTED/.test(text) && !ERROR_PAGE.test(page.url())) {
      await nextCommit(page, (url) => ERROR_PAGE.test(url), Math.min(left(), 2_000));
    }
    if (!/interrupted by another navigation/.test(text)) throw error;
  }
  await nextCommit(page, (url) => !ERROR_PAGE.test(url), Math.min(left(), 5_000));
  if (ERROR_PAGE.test(page.url()) || page.url() === 'about:blank') {
    return page.goto(href, { waitUntil: 'domcontentloaded', timeout: Math.max(1, left()) });
  }
  await page.waitForLoadState('domcontentloaded', { timeout: Math.max(1, left()) });
  return null;
}

/** Opens an http(s) URL and returns its title and readable text. */
export async function navigate(
  page: Page,
  rawUrl: string,
  options: ActionOptions & { maxTextChars?: number } = {},
): Promise<NavigateResult> {
  const url = parseWebUrl(rawUrl);
  const timeout = options.timeoutMs ?? DEFAULT_ACTION_TIMEOUT_MS;
  const started = Date.now();
  const response = await goto(page, url.href, timeout);
  // Give late scripts a moment to finish, within what is left of the timeout.
  const left = Math.max(0, timeout - (Date.now() - started));
  await page.waitForLoadState('load', { timeout: Math.min(left, 5_000) }).catch(() => undefined);
  const status = response?.status();
  const capped = capText(await readableText(page), options.maxTextChars ?? DEFAULT_MAX_TEXT_CHARS);
  const text =
    status !== undefined && status >= 400 ? `[HTTP ${status}]\n${capped.text}` : capped.text;
  return { url: page.url(), title: await page.title(), text, omittedChars: capped.omittedChars };
}

function safeName(sessionId: string): string {
  return sessionId.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 40) || 'session';
}

/** Writes a PNG of the page (viewport, or the whole page) under `dir`, mode 0600. */
export async function screenshot(
  page: Page,
  dir: string,
  options: ActionOptions & { fullPage?: boolean; sessionId?: string } = {},
): Promise<ScreenshotResult> {
  const fullPage = options.fullPage ?? false;
  const image = await page.screenshot({
    type: 'png',
    fullPage,
    timeout: options.timeoutMs ?? DEFAULT_ACTION_TIMEOUT_MS,
  });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const name = `${safeName(options.sessionId ?? 'session')}-${stamp}-${randomBytes(3).toString('hex')}.png`;
  const path = join(dir, name);
  await writeFile(path, image, { mode: 0o600, flag: 'wx' });
  return { path, bytes: image.length, fullPage };
}

async function settle(page: Page, timeout: number): Promise<void> {
  // A click may start a navigation; wait briefly for it to load, but never fail on that.
  await page
    .waitForLoadState('domcontentloaded', { timeout: Math.min(timeout, 5_000) })
    .catch(() => undefined);
}

/** Clicks the one element matching a CSS (or Playwright) selector. */
export async function click(
  page: Page,
  selector: string,
  options: ActionOptions = {},
): Promise<InteractionResult> {
  const timeout = options.timeoutMs ?? DEFAULT_ACTION_TIMEOUT_MS;
  await page.locator(selector).click({ timeout });
  await settle(page, timeout);
  return { done: `clicked ${selector}`, title: await page.title(), url: page.url() };
}

/** Replaces the value of the input, textarea or contenteditable matching `selector`. */
export async function fill(
  page: Page,
  selector: string,
  value: string,
  options: ActionOptions = {},
): Promise<InteractionResult> {
  const timeout = options.timeoutMs ?? DEFAULT_ACTION_TIMEOUT_MS;
  await page.locator(selector).fill(value, { timeout });
  return {
    done: `filled ${selector} (${value.length} characters)`,
    title: await page.title(),
    url: page.url(),
  };
}

/**
 * One readable line for a failed action: no stack, no Playwright call log, the API prefix
 * (`locator.click: `) dropped, timeouts said plainly. `what` names the action
 * (`click #submit`); `selector` is given for actions on an element.
 */
export function describeBrowserError(error: unknown, what: string, selector?: string): string {
  if (error instanceof HearthError) return error.message;
  if (!(error instanceof Error)) return `${what} failed: ${String(error)}`;
  // eslint-disable-next-line no-control-regex -- Playwright colours its call log
  const lines = error.message.replace(/\u001b\[[0-9;]*m/g, '').split('\n');
  const first = (lines[0] ?? '')
    .replace(/^[a-zA-Z]+\.[a-zA-Z]+: /, '')
    .replace(/^Error: /, '')
    .trim();
  if (error.name === 'TimeoutError') {
    const ms = /Timeout (\d+)ms/.exec(first)?.[1];
    const after = ms !== undefined ? `${Number(ms) / 1000} s` : 'the time limit';
    if (selector === undefined) return `${what} timed out after ${after}.`;
    const found = lines.some((line) => /resolved to|locator resolved/i.test(line));
    if (!found) return `${what} failed: no element matches ${selector} (waited ${after}).`;
    // Playwright's last reason ("element is not visible") says why; when the limit fell before
    // any check finished, what it was waiting for is all there is.
    const steps = lines.map((line) =>
      line
        .trim()
        .replace(/^- /, '')
        .replace(/^\d+ × /, ''),
    );
    const hint =
      steps.filter((step) => /^element is /i.test(step)).pop() ??
      steps.filter((step) => /^waiting for element/i.test(step)).pop();
    return `${what} timed out after ${after}: the element is there but not ready${
      hint ? ` (${hint})` : ''
    }.`;
  }
  if (/strict mode violation/i.test(first)) {
    const count = /resolved to (\d+) elements/.exec(first)?.[1] ?? 'several';
    return `${what} failed: ${selector ?? 'the selector'} matches ${count} elements; make it more specific.`;
  }
  if (/Target .*closed|Browser has been closed/i.test(first)) {
    return `${what} failed: the browser closed during the action; try again.`;
  }
  return `${what} failed: ${first.length > 500 ? `${first.slice(0, 500)}…` : first}`;
}
