/**
 * Moves focus to the page's heading once a navigation has drawn one other than `previous`: after a
 * search result opens its page, keyboard and screen reader users start from what they opened rather
 * than from the top of the document. Gives up after `timeoutMs` (a route that never loads).
 */
export function focusNewHeading(previous: Element | null, timeoutMs = 3_000): void {
  const started = performance.now();
  const attempt = () => {
    const heading = document.querySelector<HTMLElement>('main h1');
    if (heading && heading !== previous) {
      // Focusable by script only: a heading is not a stop in the Tab order.
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus();
      return;
    }
    if (performance.now() - started < timeoutMs) requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
}
