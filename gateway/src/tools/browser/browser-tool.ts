import type { Tool, ToolContext } from '../contract.ts';
import { shellQuote } from '../../approvals/ports.ts';
import { HearthError } from '../../errors.ts';
import {
  DEFAULT_ACTION_TIMEOUT_MS,
  click,
  describeBrowserError,
  fill,
  navigate,
  parseWebUrl,
  screenshot,
} from './browser-actions.ts';
import type { BrowserController } from './browser-session.ts';

export const BROWSER_ACTIONS = ['navigate', 'screenshot', 'click', 'fill'] as const;
export type BrowserAction = (typeof BROWSER_ACTIONS)[number];

/** The browser tool, plus the one-line "command" the approval gate shows for a call. */
export interface BrowserTool extends Tool {
  describeForApproval(args: Record<string, unknown>): string;
  /**
   * The arguments as the browser will use them (a navigate URL parsed to its `href`); throws
   * HearthError('validation') for a URL the browser must not open. The gate describes, matches
   * and notifies with these, and the tool then runs with exactly these.
   */
  normaliseArgs(args: Record<string, unknown>): Record<string, unknown>;
}

export interface BrowserToolOptions {
  /** Per-action limit (navigation, waiting for a selector, screenshot). */
  timeoutMs?: number;
  /** Readable text returned by navigate, at most. */
  maxTextChars?: number;
}

type ParsedArgs =
  | { action: 'navigate'; url: string }
  | { action: 'screenshot'; fullPage: boolean }
  | { action: 'click'; selector: string }
  | { action: 'fill'; selector: string; value: string };

const MAX_SELECTOR = 1_000;
const MAX_VALUE = 10_000;

function isAction(value: unknown): value is BrowserAction {
  return typeof value === 'string' && (BROWSER_ACTIONS as readonly string[]).includes(value);
}

function nonEmptyString(args: Record<string, unknown>, key: string): string | undefined {
  const value = args[key];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** Checks the per-action required fields; throws HearthError('validation') with a hint. */
export function parseBrowserArgs(args: Record<string, unknown>): ParsedArgs {
  const action = args.action;
  if (!isAction(action)) {
    throw new HearthError(
      'validation',
      `'action' must be one of ${BROWSER_ACTIONS.join(', ')} (got ${JSON.stringify(action) ?? 'nothing'}).`,
    );
  }
  switch (action) {
    case 'navigate': {
      const url = nonEmptyString(args, 'url');
      if (url === undefined) {
        throw new HearthError('validation', "navigate needs 'url', e.g. https://example.org/.");
      }
      parseWebUrl(url);
      return { action, url };
    }
    case 'screenshot':
      return { action, fullPage: args.full_page === true };
    case 'click':
    case 'fill': {
      const selector = nonEmptyString(args, 'selector');
      if (selector === undefined) {
        throw new HearthError(
          'validation',
          `${action} needs 'selector', a CSS selector such as #submit or input[name=q].`,
        );
      }
      if (selector.length > MAX_SELECTOR) {
        throw new HearthError('validation', `'selector' is too long (max ${MAX_SELECTOR}).`);
      }
      if (action === 'click') return { action, selector };
      const value = args.value;
      if (typeof value !== 'string') {
        throw new HearthError('validation', "fill needs 'value', the text to type (a string).");
      }
      if (value.length > MAX_VALUE) {
        throw new HearthError('validation', `'value' is too long (max ${MAX_VALUE} characters).`);
      }
      return { action, selector, value };
    }
  }
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * A navigate call's URL as the browser opens it: `new URL(raw).href`, http(s) only, no
 * credentials. Parsing drops tabs and newlines and resolves `@`, so
 * `https://docs.example.com<TAB>@evil.example/` is judged as the `evil.example` it opens.
 */
export function normaliseBrowserArgs(args: Record<string, unknown>): Record<string, unknown> {
  if (args.action !== 'navigate' || typeof args.url !== 'string') return args;
  const url = parseWebUrl(args.url);
  if (url.username !== '' || url.password !== '') {
    throw new HearthError(
      'validation',
      `The browser does not open URLs with a user name or password in them (${url.host}).`,
    );
  }
  return { ...args, url: url.href };
}

/**
 * What the approval gate shows as the command, e.g. `navigate https://example.org/`: the
 * arguments in full (an `always` approval allows exactly this text), each shell-quoted the way
 * the command analysis writes its canonical text, so the analysis reads one argument.
 */
export function describeBrowserCall(args: Record<string, unknown>): string {
  const str = (key: string): string => (typeof args[key] === 'string' ? args[key] : '');
  switch (args.action) {
    case 'navigate':
      return `navigate ${shellQuote(str('url'))}`;
    case 'screenshot':
      return args.full_page === true ? 'screenshot (full page)' : 'screenshot';
    case 'click':
      return `click ${shellQuote(str('selector'))}`;
    case 'fill':
      return `fill ${shellQuote(str('selector'))} with ${shellQuote(str('value'))}`;
    default:
      return `browser ${clip(JSON.stringify(args), 300)}`;
  }
}

function whatOf(parsed: ParsedArgs): string {
  switch (parsed.action) {
    case 'navigate':
      return `navigate to ${parsed.url}`;
    case 'screenshot':
      return 'screenshot';
    case 'click':
      return `click ${parsed.selector}`;
    case 'fill':
      return `fill ${parsed.selector}`;
  }
}

const CANCELLED = 'Error: the browser action was cancelled.';

/** `work`, or CANCELLED as soon as `signal` aborts (the action itself runs to its timeout). */
async function unlessAborted(work: Promise<string>, signal?: AbortSignal): Promise<string> {
  if (!signal) return work;
  let onAbort = (): void => undefined;
  const aborted = new Promise<string>((resolve) => {
    onAbort = () => resolve(CANCELLED);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * `browser`: drive a headless Chromium — open a page and read its text, take a screenshot,
 * click and fill by selector. Each session has its own browser context (cookies, storage).
 * Failures come back as `Error: …` text, never as a throw. Not gated here: the approval gate
 * wraps it, showing `describeForApproval(args)`.
 */
export function browserTool(
  controller: BrowserController,
  options: BrowserToolOptions = {},
): BrowserTool {
  const timeoutMs = options.timeoutMs ?? DEFAULT_ACTION_TIMEOUT_MS;

  async function run(context: ToolContext, parsed: ParsedArgs): Promise<string> {
    return controller.withPage(context.sessionId, async (page) => {
      switch (parsed.action) {
        case 'navigate': {
          const result = await navigate(page, parsed.url, {
            timeoutMs,
            maxTextChars: options.maxTextChars,
          });
          return [
            `Title: ${result.title || '(none)'}`,
            `URL: ${result.url}`,
            '',
            result.text || '(the page has no readable text)',
          ].join('\n');
        }
        case 'screenshot': {
          const shot = await screenshot(page, controller.screenshotDir, {
            timeoutMs,
            fullPage: parsed.fullPage,
            sessionId: context.sessionId,
          });
          return `Screenshot saved: ${shot.path} (PNG, ${shot.bytes} bytes, ${
            shot.fullPage ? 'full page' : 'viewport'
          }) of ${page.url()}`;
        }
        case 'click': {
          const result = await click(page, parsed.selector, { timeoutMs });
          return `OK: ${result.done}. Page now: "${result.title}" at ${result.url}`;
        }
        case 'fill': {
          const result = await fill(page, parsed.selector, parsed.value, { timeoutMs });
          return `OK: ${result.done}. Page: "${result.title}" at ${result.url}`;
        }
      }
    });
  }

  return {
    name: 'browser',
    description:
      'Headless browser (page, cookies, logins kept in this conversation). navigate: url -> ' +
      'title and readable text; screenshot: PNG of the page; click, fill (types value): the ' +
      'element matching selector.',
    parameters: {
      type: 'object',
      properties: {
        action: { type: 'string', enum: [...BROWSER_ACTIONS] },
        url: { type: 'string', description: 'http(s) URL' },
        selector: { type: 'string', description: 'CSS selector, e.g. input[name=q]' },
        value: { type: 'string' },
        full_page: { type: 'boolean', description: 'Whole page, not the viewport' },
      },
      required: ['action'],
    },
    source: 'builtin',
    describeForApproval: describeBrowserCall,
    normaliseArgs: normaliseBrowserArgs,

    async execute(context, args) {
      let parsed: ParsedArgs;
      try {
        parsed = parseBrowserArgs(normaliseBrowserArgs(args));
      } catch (error) {
        return `Error: ${describeBrowserError(error, 'browser')}`;
      }
      if (context.signal?.aborted) return CANCELLED;
      const what = whatOf(parsed);
      const selector =
        parsed.action === 'click' || parsed.action === 'fill' ? parsed.selector : undefined;
      const work = run(context, parsed).catch((error: unknown) => {
        if (error instanceof HearthError && error.code === 'unavailable') {
          return `Error: the browser is unavailable. ${error.message}`;
        }
        return `Error: ${describeBrowserError(error, what, selector)}`;
      });
      return unlessAborted(work, context.signal);
    },
  };
}
