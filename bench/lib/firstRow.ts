import type { Browser, BrowserContext } from 'playwright-core';
import { ONBOARDED_STORAGE } from './appServer';

/**
 * Records, in the page, when the first element matching `selector` enters the DOM (ms since
 * navigation start, as `window.__firstRowAt`). Passed to page.addInitScript, so it runs in the page.
 */
export function watchFirstRow(selector: string): void {
  const w = window as unknown as { __firstRowAt?: number };
  const observer = new MutationObserver(() => {
    if (document.querySelector(selector)) {
      w.__firstRowAt = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { childList: true, subtree: true });
}

/**
 * A fresh device for a first-row figure: service workers blocked (the app's own render is measured),
 * onboarding done, and the first element matching `selector` timed (watchFirstRow).
 */
export async function firstRowContext(
  browser: Browser,
  viewport: { width: number; height: number },
  selector: string,
): Promise<BrowserContext> {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport });
  await context.addInitScript(
    ([key, value]) => localStorage.setItem(key as string, value as string),
    [ONBOARDED_STORAGE.key, ONBOARDED_STORAGE.value],
  );
  await context.addInitScript(watchFirstRow, selector);
  return context;
}
