/**
 * One-off: renders the brand mark (public/favicon.svg's drawing) to the PNG icons the web app
 * manifest needs, with the Debian Chromium through playwright-core. Run it again only when the mark
 * changes: `npx tsx scripts/makeIcons.ts`; the PNGs are committed in public/.
 */
import path from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumPath } from './lib/chromium';
import { repoRoot } from './lib/paths';

const MARK = '<path d="M16 6 7 24h18L16 6Zm0 6.5 4.6 9.5h-9.2L16 12.5Z" fill="#fff" />';

/** The rounded tile, as in the favicon: for "any" purpose icons. */
const tile = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
  <rect width="32" height="32" rx="8" fill="#4f46e5" />${MARK}</svg>`;

/**
 * Maskable: the platform crops to its own shape, so the background is full bleed and the mark sits
 * inside the central 80 % safe zone (scaled to 60 % here, leaving margin for circles).
 */
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
  <rect width="32" height="32" fill="#4f46e5" />
  <g transform="translate(16 16) scale(0.6) translate(-16 -15)">${MARK}</g></svg>`;

const outputs = [
  { file: 'pwa-192x192.png', size: 192, svg: tile },
  { file: 'pwa-512x512.png', size: 512, svg: tile },
  { file: 'pwa-maskable-512x512.png', size: 512, svg: maskable },
  { file: 'apple-touch-icon-180x180.png', size: 180, svg: maskable },
];

const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
try {
  for (const { file, size, svg } of outputs) {
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    const html = `<!doctype html><html><body style="margin:0;background:transparent">
      <div style="width:${size}px;height:${size}px">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</div>
      </body></html>`;
    await page.setContent(html);
    await page.screenshot({ path: path.join(repoRoot, 'public', file), omitBackground: true });
    await page.close();
    console.log(`public/${file} (${size}×${size})`);
  }
} finally {
  await browser.close();
}
