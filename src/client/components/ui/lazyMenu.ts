/**
 * Menus that are not part of the first screen. A row or header shows a plain button with the menu
 * trigger's look, name and ARIA; its first press loads the Radix menu (with its positioning and focus
 * libraries), and the real trigger replays that press, so the menu opens exactly as Radix opens it
 * (pointer: content focused; keyboard: first item focused).
 */
import {
  type KeyboardEvent as ReactKeyboardEvent,
  type MouseEvent as ReactMouseEvent,
  type PointerEvent as ReactPointerEvent,
  type RefObject,
  useEffect,
  useRef,
} from 'react';

/** How a placeholder trigger was pressed before the menu's module had loaded. */
export type MenuIntent =
  | { kind: 'pointer'; focus: boolean }
  | { kind: 'keyboard'; key: 'Enter' | ' ' | 'ArrowDown' };

/** A module loaded at most once, readable synchronously once it has arrived. */
export interface LazyModule<M> {
  /** The module if it has loaded, so a render can use it without suspending. */
  current(): M | null;
  load(): Promise<M>;
}

export function lazyModule<M>(importer: () => Promise<M>): LazyModule<M> {
  let loaded: M | null = null;
  let loading: Promise<M> | null = null;
  return {
    current: () => loaded,
    load() {
      loading ??= importer().then(
        (m) => {
          loaded = m;
          return m;
        },
        (error: unknown) => {
          // Offline before the chunk was cached: the next press tries again.
          loading = null;
          throw error;
        },
      );
      return loading;
    },
  };
}

const MENU_KEYS = new Set(['Enter', ' ', 'ArrowDown']);

/** The event handlers of a placeholder trigger: each records the intent and calls `open`. */
export function placeholderTriggerHandlers(open: (intent: MenuIntent) => void) {
  return {
    onPointerDown(event: ReactPointerEvent<HTMLButtonElement>) {
      // As Radix's trigger: a primary press without Ctrl opens, and the button does not take focus.
      if (event.button !== 0 || event.ctrlKey) return;
      event.preventDefault();
      open({ kind: 'pointer', focus: document.activeElement === event.currentTarget });
    },
    onClick(event: ReactMouseEvent<HTMLButtonElement>) {
      // A click with no press before it (assistive technology) still opens the menu.
      if (event.detail === 0) open({ kind: 'pointer', focus: true });
    },
    onKeyDown(event: ReactKeyboardEvent<HTMLButtonElement>) {
      if (!MENU_KEYS.has(event.key)) return;
      event.preventDefault();
      open({ kind: 'keyboard', key: event.key as 'Enter' | ' ' | 'ArrowDown' });
    },
  };
}

/** The ARIA a closed menu trigger carries, for the placeholder to match. */
export const closedTriggerAria = {
  'aria-haspopup': 'menu',
  'aria-expanded': false,
  'data-state': 'closed',
} as const;

/** Replays the placeholder's press on the real Radix trigger, once, after it has mounted. */
export function useReplayMenuIntent(trigger: RefObject<HTMLElement | null>, intent: MenuIntent | null): void {
  const replayed = useRef(false);
  useEffect(() => {
    // Runs after the Radix root's own effects (children first), so its keyboard tracking is listening.
    const button = trigger.current;
    if (!intent || !button || replayed.current) return;
    replayed.current = true;
    if (intent.kind === 'keyboard') {
      button.focus({ preventScroll: true });
      button.dispatchEvent(
        new KeyboardEvent('keydown', { key: intent.key, bubbles: true, cancelable: true }),
      );
    } else {
      if (intent.focus) button.focus({ preventScroll: true });
      button.dispatchEvent(
        new PointerEvent('pointerdown', { button: 0, pointerType: 'mouse', bubbles: true, cancelable: true }),
      );
    }
  }, [trigger, intent]);
}
