import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildForProduction,
  INITIAL_BUDGET_GZIP_BYTES,
  measureBundle,
  type BundleReport,
} from './testing/bundle-size.ts';

describe('web client bundle size', { timeout: 120_000 }, () => {
  let assets: string;
  let report: BundleReport;
  beforeAll(async () => {
    assets = await buildForProduction();
    report = await measureBundle(assets);
    const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
    const lines = [
      `initial load ${kb(report.initialTotal)} gzip (budget ${kb(INITIAL_BUDGET_GZIP_BYTES)}):`,
      ...Object.entries(report.initial).map(([path, bytes]) => `  ${path} ${kb(bytes)}`),
      `lazy chunks ${kb(report.lazyTotal)} gzip:`,
      ...Object.entries(report.lazy).map(([path, bytes]) => `  ${path} ${kb(bytes)}`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }, 120_000);
  afterAll(async () => {
    if (assets) await rm(assets, { recursive: true, force: true });
  });

  it('keeps the initial JS and CSS within the gzip budget', () => {
    expect(Object.keys(report.initial).some((path) => path.endsWith('.js'))).toBe(true);
    expect(Object.keys(report.initial).some((path) => path.endsWith('.css'))).toBe(true);
    expect(report.initialTotal).toBeLessThanOrEqual(INITIAL_BUDGET_GZIP_BYTES);
  });

  it('loads the views other than the chat on demand, in chunks of their own', () => {
    expect(Object.keys(report.lazy).length).toBeGreaterThanOrEqual(5);
    expect(report.lazyTotal).toBeGreaterThan(0);
  });
});
