/**
 * Runs `run` when the page is idle (requestIdleCallback: never between the tasks of a search and its
 * render, which a timer's task could be), with the idle time it may take, at most `maxMs`; a task at
 * a time where idle callbacks are missing (tests, old Safari). After a second without an idle moment
 * it runs anyway, so a busy page still gets its turn.
 */
export function whenIdle(run: (ms: number) => void, maxMs: number): void {
  if (typeof requestIdleCallback === 'function') {
    requestIdleCallback((deadline) => run(Math.min(maxMs, deadline.timeRemaining())), { timeout: 1000 });
  } else setTimeout(() => run(maxMs), 0);
}
