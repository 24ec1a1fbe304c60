/**
 * Renders the web client's PNG icons from web/public/icon.svg with the system's headless
 * Chromium: icon-192.png and icon-512.png (the SVG as drawn, transparent corners) and
 * icon-maskable-512.png (the flame inside the maskable safe zone on a full-bleed square).
 * Run after changing the SVG: `node scripts/web-icons.ts`; the PNGs are committed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { launchChromium } from '../gateway/src/testing/fakes/chromium.ts';

const publicDir = join(import.meta.dirname, '..', 'web', 'public');
const svg = await readFile(join(publicDir, 'icon.svg'), 'utf8');
const fill = /<rect[^>]*fill="([^"]+)"/.exec(svg)?.[1];
const flame = /<path[^>]*\/>/.exec(svg)?.[0];
if (!fill || !flame) throw new Error('icon.svg: expected a <rect fill> and a <path>');

/** The maskable variant: a square of the icon's colour, the flame at 70 % (inside the 80 % circle). */
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${fill}"/><g transform="translate(32 32) scale(0.7) translate(-32 -32)">${flame}</g></svg>`;

const browser = await launchChromium();
try {
  const outputs: [string, string, number][] = [
    ['icon-192.png', svg, 192],
    ['icon-512.png', svg, 512],
    ['icon-maskable-512.png', maskable, 512],
  ];
  for (const [name, source, size] of outputs) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const sized = source.replace('<svg ', `<svg width="${size}" height="${size}" `);
    await page.setContent(`<body style="margin:0">${sized}</body>`);
    await page.screenshot({ path: join(publicDir, name), omitBackground: true });
    await page.close();
    process.stdout.write(`${join(publicDir, name)}\n`);
  }
} finally {
  await browser.close();
}
