import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { chromiumArgs, chromiumAvailable, chromiumPath } from '../../scripts/lib/chromium';
import { buildPage } from '../clientBrowser';
import { startSeededAppServer } from './appServer';
import { skip } from './report';

/**
 * Runs `body` in headless Chromium on the client-browser bench page, served by the real server over a
 * fresh database seeded with the bench account (bench/lib/seed.ts), once `window[api]` is there; then
 * closes everything. False when there is no Chromium (the bench is skipped, saying so).
 */
export async function inSeededPage(
  bench: string,
  api: string,
  body: (page: Page, url: string) => Promise<void>,
): Promise<boolean> {
  if (!chromiumAvailable()) {
    skip(bench, `no Chromium at ${chromiumPath}`);
    return false;
  }
  const work = await mkdtemp(path.join(tmpdir(), `outpost-${bench}-`));
  const clientDir = path.join(work, 'client');
  await buildPage(clientDir);
  const server = await startSeededAppServer(clientDir, path.join(work, 'data'));
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.goto(`${server.url}/`);
    await page.waitForFunction((name) => name in window, api);
    await body(page, server.url);
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
  return true;
}
