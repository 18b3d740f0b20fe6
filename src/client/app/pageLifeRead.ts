import { useCallback, useEffect } from 'react';
import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { factScope, type Send, useDoor } from './door';

/**
 * A public server fact the sign-in screens read (which sign-in flow, which providers): asked once per
 * page (its shell's door and the data layer's that takes over share it, door.ts factScope; a test's
 * door has its own) and kept for its life, without the query library, which only the screens with
 * server lists load. As a query would: the ask waits while the browser is offline and goes when it is
 * back, one ask serves every screen at once, and a failed one is not kept (the next screen that reads
 * it asks again).
 */
export interface PageLifeRead<T> {
  /** Asks through `send` unless answered, asking or waiting for the network; settles with the ask. */
  ensure(send: Send): Promise<void>;
  /**
   * What is kept for `send`'s door: the value once the server has answered (or `set`), else
   * undefined; `settled` once an ask has ended either way, or waits for the network.
   */
  storeOf(send: Send): StoreApi<Fact<T>>;
}

/** The fact as a screen reads it. */
interface Fact<T> {
  value: T | undefined;
  settled: boolean;
}

interface Kept<T> {
  store: StoreApi<Fact<T>>;
  asking: Promise<void> | null;
  waitingForNetwork: boolean;
}

/** A fact `ask` answers, kept per door for the page's life (see PageLifeRead). */
export function pageLifeRead<T>(
  ask: (send: Send) => Promise<T>,
  scopeOf: (send: Send) => object = factScope,
): PageLifeRead<T> {
  const byDoor = new WeakMap<object, Kept<T>>();
  const keptFor = (send: Send): Kept<T> => {
    const scope = scopeOf(send);
    let kept = byDoor.get(scope);
    if (!kept) {
      kept = {
        store: createStore<Fact<T>>(() => ({ value: undefined, settled: false })),
        asking: null,
        waitingForNetwork: false,
      };
      byDoor.set(scope, kept);
    }
    return kept;
  };

  const ensure = (send: Send): Promise<void> => {
    const kept = keptFor(send);
    if (kept.store.getState().value !== undefined) return Promise.resolve();
    if (kept.asking) return kept.asking;
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      kept.store.setState({ settled: true });
      if (!kept.waitingForNetwork) {
        kept.waitingForNetwork = true;
        window.addEventListener(
          'online',
          () => {
            kept.waitingForNetwork = false;
            void ensure(send);
          },
          { once: true },
        );
      }
      return Promise.resolve();
    }
    const asking = ask(send).then(
      (value) => {
        // A value set meanwhile (a later call said the mode changed) is newer than this answer.
        if (kept.store.getState().value === undefined) kept.store.setState({ value, settled: true });
      },
      () => kept.store.setState({ settled: true }),
    );
    kept.asking = asking.finally(() => {
      kept.asking = null;
    });
    return kept.asking;
  };

  return { ensure, storeOf: (send) => keptFor(send).store };
}

/** The fact for the door on screen, asked on first use: undefined until the server has answered. */
export function usePageLifeRead<T>(read: PageLifeRead<T>): T | undefined {
  const { send } = useDoor();
  useEffect(() => void read.ensure(send), [read, send]);
  return useStore(read.storeOf(send), (s) => s.value);
}

/** Sets the fact for the door on screen: what the server answered after all (the mode changed). */
export function useSetPageLifeRead<T>(read: PageLifeRead<T>): (value: T) => void {
  const { send } = useDoor();
  return useCallback((value: T) => read.storeOf(send).setState({ value, settled: true }), [read, send]);
}

/** Whether the fact's first ask for the door on screen has ended (answered, failed, or offline). */
export function usePageLifeSettled<T>(read: PageLifeRead<T>): boolean {
  const { send } = useDoor();
  return useStore(read.storeOf(send), (s) => s.settled);
}
