/**
 * Dexie's liveQuery, except that a read outrun by writes still shows. Dexie drops the answer of a run
 * during which a write it observed committed, and runs again; under a stream of commits (a pull's
 * transactions, one after another) every run of a slow read was dropped until the stream ended: a
 * fresh device's Home showed its first row only once a 10,000-item pull was over, 3 s after the Sign
 * In click. Here the first answer any run finishes shows at once, and after that a dropped answer
 * shows when nothing has shown for PROVISIONAL_EVERY_MS; either is marked provisional, and Dexie's
 * next consistent answer follows it. An answer never replaces a newer one.
 */
import { liveQuery } from 'dexie';
import type { LiveObserver, LiveSource } from '../changes/localEcho';

/** How long a read outrun by writes may go without showing what its runs found. */
export const PROVISIONAL_EVERY_MS = 300;

interface Answer<T> {
  run: number;
  value: T;
}

const isThenable = <T>(value: T | PromiseLike<T>): value is PromiseLike<T> =>
  typeof (value as { then?: unknown } | null | undefined)?.then === 'function';

/** A live read of `querier` (see the module comment): re-run whenever what it read changes, in any tab. */
export function liveRead<T>(querier: () => T | Promise<T>): LiveSource<T> {
  let runs = 0;
  // Each subscriber hears of every finished run, Dexie's answer or not.
  const finished = new Set<(run: number, value: T) => void>();
  const source = liveQuery<Answer<T>>(() => {
    const run = ++runs;
    const value = querier();
    const answer = (found: T): Answer<T> => {
      for (const onFinished of finished) onFinished(run, found);
      return { run, value: found };
    };
    return isThenable(value) ? value.then(answer) : answer(value);
  });
  return {
    hasValue: () => source.hasValue?.() === true,
    getValue: () => (source.getValue?.() as Answer<T> | undefined)?.value as T,
    subscribe(observerOrNext, onError) {
      const observer: LiveObserver<T> =
        typeof observerOrNext === 'function' ? { next: observerOrNext, error: onError } : observerOrNext;
      let shownRun = 0;
      let shownAt = Number.NEGATIVE_INFINITY;
      let latest = 0;
      let closed = false;
      const show = (run: number, value: T, provisional: boolean) => {
        if (closed || run <= shownRun) return;
        shownRun = run;
        shownAt = performance.now();
        observer.next?.(value, provisional);
      };
      const onFinished = (run: number, value: T) => {
        latest = Math.max(latest, run);
        // Dexie answers or drops this run in the same turn: looked at once it has.
        setTimeout(() => {
          if (run !== latest || run <= shownRun) return;
          if (shownRun === 0 || performance.now() - shownAt >= PROVISIONAL_EVERY_MS) show(run, value, true);
        }, 0);
      };
      finished.add(onFinished);
      const sub = source.subscribe({
        next: (answer) => show(answer.run, answer.value, false),
        error: (error) => observer.error?.(error),
      });
      return {
        unsubscribe() {
          closed = true;
          finished.delete(onFinished);
          sub.unsubscribe();
        },
      };
    },
  };
}
