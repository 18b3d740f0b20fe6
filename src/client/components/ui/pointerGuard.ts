/** The longest usual double-click interval: nothing on the page takes a click this long after a delete. */
export const POINTER_GUARD_MS = 500;

let guardedUntil = 0;

/**
 * Shields the page from the rest of a double click after a delete: the next row slides up under the
 * pointer, and its delete button must not take the second click.
 */
export function guardPointer(now: number = Date.now()): void {
  guardedUntil = now + POINTER_GUARD_MS;
  if (typeof document === 'undefined') return;
  const root = document.documentElement;
  root.style.pointerEvents = 'none';
  window.setTimeout(() => {
    root.style.pointerEvents = '';
  }, POINTER_GUARD_MS);
}

/** True while a delete's double click may still be arriving (a second delete is ignored then). */
export function pointerGuarded(now: number = Date.now()): boolean {
  return now < guardedUntil;
}

/** Lifts the guard at once (component tests, which delete faster than any person). */
export function resetPointerGuard(): void {
  guardedUntil = 0;
}
