import { localWritesQuietIn } from '../store/writesInFlight';

/**
 * Past this, a task waiting for the local writes to quiet runs anyway: a page writing without pause
 * (an import, a drag across a long list) still gets its search index built.
 */
const QUIET_WAIT_MAX_MS = 2000;

/**
 * Runs `run` when the page is idle (requestIdleCallback: never between the tasks of a search and its
 * render, which a timer's task could be), with the idle time it may take, at most `maxMs`; a task at
 * a time where idle callbacks are missing (tests, old Safari). After a second without an idle moment
 * it runs anyway, so a busy page still gets its turn. Not while a local write is under way or just
 * settled (store/writesInFlight.ts): an idle moment inside an edit is the edit waiting for
 * IndexedDB, and a slice begun then (up to `maxMs`) would hold the edit's answer, and the list
 * showing it, until the slice ends.
 */
export function whenIdle(run: (ms: number) => void, maxMs: number, asked = performance.now()): void {
  const whenQuiet = (ms: number) => {
    const wait = localWritesQuietIn();
    if (wait > 0 && performance.now() - asked < QUIET_WAIT_MAX_MS)
      setTimeout(() => whenIdle(run, maxMs, asked), wait);
    else run(ms);
  };
  if (typeof requestIdleCallback === 'function') {
    requestIdleCallback((deadline) => whenQuiet(Math.min(maxMs, deadline.timeRemaining())), {
      timeout: 1000,
    });
  } else setTimeout(() => whenQuiet(maxMs), 0);
}
