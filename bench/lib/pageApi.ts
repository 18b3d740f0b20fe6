/**
 * The Node side of a bench page's API (an object the page puts on `window`): typed calls into it, and
 * the numeric options the benches that drive such a page take.
 */
import type { Page } from 'playwright-core';

type Methods = { [name: string]: (...args: never[]) => unknown };

/** A typed caller of `window[global]`'s methods on a page. */
export function pageApi<Api extends Methods>(global: string) {
  return <K extends keyof Api & string>(page: Page, name: K, ...args: Parameters<Api[K]>) =>
    page.evaluate(
      ([g, n, a]) => {
        const api = (window as unknown as Record<string, Record<string, (...xs: unknown[]) => unknown>>)[g]!;
        return api[n]!(...(a as unknown[]));
      },
      [global, name, args] as const,
    ) as Promise<Awaited<ReturnType<Api[K]>>>;
}

/** The number after `name` in a bench's arguments, else `fallback`. */
export function numberArg(args: readonly string[], name: string, fallback: number): number {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
}

/** How many items the page's IndexedDB database 'Outpost' holds (0 before the store exists). */
export function storedItemCount(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open('Outpost');
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('items')) {
            db.close();
            resolve(0);
            return;
          }
          const request = db.transaction('items').objectStore('items').count();
          request.onsuccess = () => {
            db.close();
            resolve(request.result);
          };
          request.onerror = () => {
            db.close();
            resolve(0);
          };
        };
        open.onerror = () => resolve(0);
      }),
  );
}
