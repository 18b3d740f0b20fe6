/** A part loaded on first use; `started()` tells whether anything has asked for it yet. */
export type Lazy<T> = (() => Promise<T>) & { started: () => boolean };

/**
 * The data layer's one way to load a part on first use: a memoised loader (a failed load is tried
 * again next time). Undo, the transfer, search, notifications, the repository and the sync engine
 * load this way, so the first screen downloads none of them.
 */
export function lazily<T>(load: () => Promise<T>): Lazy<T> {
  let loading: Promise<T> | null = null;
  const get = () => {
    loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    });
    return loading;
  };
  return Object.assign(get, { started: () => loading !== null });
}

type AsyncMethods<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => Promise<R> : never;
};

/**
 * An object whose named methods load `load` (after `before`, when given) on their first call: the
 * client's repository is one, so its writes are there at once and its code comes with the first write.
 */
export function lazyMethods<T, K extends keyof T>(
  load: () => Promise<T>,
  names: readonly K[],
  before: () => Promise<void> = async () => {},
): Pick<AsyncMethods<T>, K> {
  const out: Partial<Record<K, unknown>> = {};
  // Once loaded (and `before` done), a call goes straight through: a write's first step is not
  // queued behind three promise hops.
  let loaded: T | null = null;
  const call = (target: T, name: K, args: never[]) =>
    (target[name] as (...xs: never[]) => Promise<unknown>)(...args);
  for (const name of names) {
    out[name] = (...args: never[]) => {
      if (loaded) return call(loaded, name, args);
      return (async () => {
        await before();
        const target = await load();
        loaded = target;
        return call(target, name, args);
      })();
    };
  }
  return out as Pick<AsyncMethods<T>, K>;
}
