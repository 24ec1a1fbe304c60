import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core's browser build, evaluated in the page (no CDN, no inline script tag: the CSP holds). */
const AXE_SOURCE = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** WCAG 2.x A and AA, and axe's best practices that are cheap to keep (landmarks, headings). */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

interface Violation {
  id: string;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** axe's violations on the page as `rule: selector — why` lines, and how many contrasts it checked. */
export async function axeAudit(page: Page): Promise<{ violations: string[]; contrast: number }> {
  if (!(await page.evaluate("typeof window.axe === 'object'"))) {
    await page.evaluate(await AXE_SOURCE);
  }
  const result = await page.evaluate<{ violations: Violation[]; passes: Violation[] }>(
    `axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(TAGS)} }, iframes: false })`,
  );
  return {
    violations: result.violations.flatMap((v) =>
      v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} — ${n.failureSummary ?? v.help}`),
    ),
    contrast: result.passes.find((p) => p.id === 'color-contrast')?.nodes.length ?? 0,
  };
}
