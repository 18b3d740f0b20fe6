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
