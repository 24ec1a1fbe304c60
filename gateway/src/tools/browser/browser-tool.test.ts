import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import {
  capText,
  collapseWhitespace,
  describeBrowserError,
  parseWebUrl,
} from './browser-actions.ts';
import { createBrowserController } from './browser-session.ts';
import {
  browserTool,
  describeBrowserCall,
  normaliseBrowserArgs,
  parseBrowserArgs,
} from './browser-tool.ts';

const context = { sessionId: 's1', channel: 'test' };

describe('browser tool arguments (no browser needed)', () => {
  it('accepts only http and https URLs', () => {
    expect(parseWebUrl('https://example.org/a?b=1').href).toBe('https://example.org/a?b=1');
    expect(parseWebUrl('http://127.0.0.1:8080/').host).toBe('127.0.0.1:8080');
    for (const url of [
      'file:///etc/passwd',
      'chrome://version',
      'javascript:alert(1)',
      'data:text/html,<p>x</p>',
      'about:blank',
      'ftp://example.org/',
    ]) {
      expect(() => parseWebUrl(url)).toThrow(/only opens http:\/\/ and https:\/\//);
    }
    expect(() => parseWebUrl('not a url')).toThrow(/Not a valid URL/);
  });

  it('checks the fields each action needs, with a hint', () => {
    expect(parseBrowserArgs({ action: 'navigate', url: 'https://x.test/' })).toEqual({
      action: 'navigate',
      url: 'https://x.test/',
    });
    expect(parseBrowserArgs({ action: 'screenshot', full_page: true })).toEqual({
      action: 'screenshot',
      fullPage: true,
    });
    expect(parseBrowserArgs({ action: 'fill', selector: '#q', value: '' })).toEqual({
      action: 'fill',
      selector: '#q',
      value: '',
    });
    expect(() => parseBrowserArgs({ action: 'hover' })).toThrow(
      /'action' must be one of navigate, screenshot, click, fill/,
    );
    expect(() => parseBrowserArgs({})).toThrow(/got nothing/);
    expect(() => parseBrowserArgs({ action: 'navigate' })).toThrow(/navigate needs 'url'/);
    expect(() => parseBrowserArgs({ action: 'click', selector: ' ' })).toThrow(
      /click needs 'selector'/,
    );
    expect(() => parseBrowserArgs({ action: 'fill', selector: '#q' })).toThrow(
      /fill needs 'value'/,
    );
  });

  it('describes a call for the approval prompt', () => {
    expect(describeBrowserCall({ action: 'navigate', url: 'https://example.org/' })).toBe(
      'navigate https://example.org/',
    );
    expect(describeBrowserCall({ action: 'screenshot', full_page: true })).toBe(
      'screenshot (full page)',
    );
    expect(describeBrowserCall({ action: 'click', selector: '#go' })).toBe("click '#go'");
    expect(describeBrowserCall({ action: 'fill', selector: '#q', value: 'cats and dogs' })).toBe(
      "fill '#q' with 'cats and dogs'",
    );
    expect(describeBrowserCall({ action: 'zap' })).toBe('browser {"action":"zap"}');
  });

  it('describes every argument in full, quoted as one shell word (always allows exactly it)', () => {
    const url = `https://example.org/${'p'.repeat(600)}?q=1&r=2`;
    expect(describeBrowserCall({ action: 'navigate', url })).toBe(`navigate '${url}'`);
    const value = `${'v'.repeat(300)} it's`;
    expect(describeBrowserCall({ action: 'fill', selector: '#q', value })).toBe(
      `fill '#q' with '${'v'.repeat(300)} it'"'"'s'`,
    );
  });

  it('normalises a navigate URL to the href the browser opens', () => {
    expect(normaliseBrowserArgs({ action: 'navigate', url: ' HTTPS://Example.ORG ' })).toEqual({
      action: 'navigate',
      url: 'https://example.org/',
    });
    expect(
      normaliseBrowserArgs({ action: 'navigate', url: 'https://docs.example.com\t.evil.example/' }),
    ).toEqual({ action: 'navigate', url: 'https://docs.example.com.evil.example/' });
    expect(() =>
      normaliseBrowserArgs({ action: 'navigate', url: 'https://docs.example.com\t@evil.example/' }),
    ).toThrow(/user name or password/);
    expect(() => normaliseBrowserArgs({ action: 'navigate', url: 'javascript:alert(1)' })).toThrow(
      /only opens http/,
    );
    expect(normaliseBrowserArgs({ action: 'click', selector: '#go' })).toEqual({
      action: 'click',
      selector: '#go',
    });
  });

  it('collapses whitespace and caps text with a note', () => {
    expect(collapseWhitespace('  a \t b \n\n\n  c\u00a0 d  \n\n')).toBe('a b\n\nc d');
    expect(capText('abcdef', 10)).toEqual({ text: 'abcdef', omittedChars: 0 });
    expect(capText('abcdef', 4)).toEqual({
      text: 'abcd\n[… 2 more characters not shown]',
      omittedChars: 2,
    });
  });

  it("gives Playwright's reason for an element that is there but not ready, wherever the time ran out", () => {
    const timedOut = (...steps: string[]): Error => {
      const error = new Error(
        [
          'locator.click: Timeout 2000ms exceeded.',
          'Call log:',
          "  - waiting for locator('#hidden')",
          '    - locator resolved to <button id="hidden">x</button>',
          '  - attempting click action',
          ...steps,
        ]
          .map((line) => `\u001b[2m${line}\u001b[22m`)
          .join('\n'),
      );
      error.name = 'TimeoutError';
      return error;
    };
    const notVisible =
      'click #hidden timed out after 2 s: the element is there but not ready (element is not visible).';
    // The limit falls after a retry's pause, as on an idle machine.
    const afterPause = timedOut(
      '    2 × waiting for element to be visible, enabled and stable',
      '      - element is not visible',
      '    - retrying click action',
      '      - waiting 500ms',
    );
    expect(describeBrowserError(afterPause, 'click #hidden', '#hidden')).toBe(notVisible);
    // The limit falls while a new check waits (a loaded machine): the last reason still counts.
    const midCheck = timedOut(
      '    2 × waiting for element to be visible, enabled and stable',
      '      - element is not visible',
      '    - retrying click action',
      '    - waiting 20ms',
      '    - waiting for element to be visible, enabled and stable',
    );
    expect(describeBrowserError(midCheck, 'click #hidden', '#hidden')).toBe(notVisible);
    const disabled = timedOut(
      '    3 × waiting for element to be visible, enabled and stable',
      '      - element is not enabled',
      '    - retrying click action',
      '    - waiting for element to be visible, enabled and stable',
    );
    expect(describeBrowserError(disabled, 'click #hidden', '#hidden')).toBe(
      'click #hidden timed out after 2 s: the element is there but not ready (element is not enabled).',
    );
    // No check finished before the limit: say what it was waiting for.
    for (const step of [
      '    - waiting for element to be visible, enabled and stable',
      '    4 × waiting for element to be visible, enabled and stable',
    ])
      expect(describeBrowserError(timedOut(step), 'click #hidden', '#hidden')).toBe(
        'click #hidden timed out after 2 s: the element is there but not ready (waiting for element to be visible, enabled and stable).',
      );
  });

  it('turns Playwright errors into one readable line', () => {
    const timeout = new Error(
      "locator.click: Timeout 1500ms exceeded.\nCall log:\n  - waiting for locator('#nope')\n",
    );
    timeout.name = 'TimeoutError';
    expect(describeBrowserError(timeout, 'click #nope', '#nope')).toBe(
      'click #nope failed: no element matches #nope (waited 1.5 s).',
    );
    const other = new Error(
      'page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:9/\nCall log:',
    );
    expect(describeBrowserError(other, 'navigate to http://127.0.0.1:9/')).toBe(
      'navigate to http://127.0.0.1:9/ failed: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:9/',
    );
  });
});

describe('browser tool without a browser installed', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-browser-none-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reports it clearly and answers with a message instead of throwing', async () => {
    const controller = createBrowserController({
      executablePath: join(dir, 'no-such-chromium'),
      env: {},
      screenshotDir: dir,
      logger: silentLogger(),
    });
    const availability = await controller.available();
    expect(availability.ok).toBe(false);
    expect(availability.detail).toContain('apt-get install chromium');
    expect(availability.detail).toContain('no-such-chromium');

    const tool = browserTool(controller);
    const answer = await tool.execute(context, { action: 'navigate', url: 'http://127.0.0.1/' });
    expect(answer).toMatch(/^Error: the browser is unavailable\. No browser at .*no-such-chromium/);
    expect(answer).toContain('apt-get install chromium');
    expect(answer).not.toMatch(/\n\s+at /); // no stack
    expect(controller.running()).toBe(false);
    await controller.close();
  });

  it('answers bad arguments with a hint, before touching any browser', async () => {
    const controller = createBrowserController({
      executablePath: join(dir, 'no-such-chromium'),
      env: {},
      screenshotDir: dir,
      logger: silentLogger(),
    });
    const tool = browserTool(controller);
    expect(await tool.execute(context, { action: 'navigate', url: 'file:///etc/passwd' })).toBe(
      "Error: The browser only opens http:// and https:// URLs, not 'file:' ones.",
    );
    expect(await tool.execute(context, { action: 'fill', selector: '#q' })).toBe(
      "Error: fill needs 'value', the text to type (a string).",
    );
  });
});
