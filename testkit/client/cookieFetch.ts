import type { FetchLike } from '../../src/client/data/net/apiClient';

/**
 * A fetch with its own cookie jar, for Node (tests, benchmarks) where fetch keeps no cookies.
 * Each jar is one "device": two jars against one server are two browsers.
 */
export function createCookieFetch(base: FetchLike = (input, init) => globalThis.fetch(input, init)) {
  const jar = new Map<string, string>();
  const fetch: FetchLike = async (input, init) => {
    const headers = new Headers(init?.headers);
    if (jar.size > 0) headers.set('Cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await base(input, { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq < 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => {
        const [k = '', v = ''] = a.split('=');
        const key = k.trim().toLowerCase();
        return (key === 'max-age' && Number(v) <= 0) || (key === 'expires' && Date.parse(v) < Date.now());
      });
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  };
  return {
    fetch,
    cookie: (name: string): string | null => {
      const v = jar.get(name);
      return v === undefined ? null : decodeURIComponent(v);
    },
    /** Sets a cookie as a server would have (a token kept from a session since ended, say). */
    set: (name: string, value: string) => void jar.set(name, encodeURIComponent(value)),
    clear: () => jar.clear(),
  };
}
