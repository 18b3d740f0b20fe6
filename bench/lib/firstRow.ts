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
