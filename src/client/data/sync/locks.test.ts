import { describe, expect, it } from 'vitest';
import { createApiClient, isNetworkError } from '../net/apiClient';
import { nextSyncDelay, SYNC_INTERVAL_MS } from './';
import { BUSY, createSyncLock } from './locks';

describe('one tab syncs at a time', () => {
  it('runs under the Web Lock and answers BUSY when another tab holds it', async () => {
    let available = true;
    const locks = {
      request: async <T>(_name: string, _o: { ifAvailable: boolean }, cb: (lock: unknown) => Promise<T>) =>
        cb(available ? {} : null),
    };
    const lock = createSyncLock('outpost-sync', locks);
    expect(await lock.tryRun(async () => 'ran')).toBe('ran');
    available = false;
    expect(await lock.tryRun(async () => 'ran')).toBe(BUSY);
  });

  it('falls back to an in-tab lock where Web Locks are absent', async () => {
    const lock = createSyncLock('outpost-sync', null);
    let release!: () => void;
    const first = lock.tryRun(() => new Promise<string>((r) => (release = () => r('first'))));
    expect(await lock.tryRun(async () => 'second')).toBe(BUSY);
    release();
    expect(await first).toBe('first');
    expect(await lock.tryRun(async () => 'third')).toBe('third');
  });
});

describe('sync interval', () => {
  it('waits 30 seconds give or take 20 %', () => {
    expect(nextSyncDelay(SYNC_INTERVAL_MS, () => 0)).toBe(24_000);
    expect(nextSyncDelay(SYNC_INTERVAL_MS, () => 0.5)).toBe(30_000);
    expect(nextSyncDelay(SYNC_INTERVAL_MS, () => 1)).toBe(36_000);
  });

  it('R3: tries again after 2, 4, 8 … seconds while the server cannot be reached, never past the interval (P15)', () => {
    const middle = () => 0.5;
    expect([1, 2, 3, 4, 5, 6].map((failures) => nextSyncDelay(SYNC_INTERVAL_MS, middle, failures))).toEqual([
      2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
    expect(nextSyncDelay(SYNC_INTERVAL_MS, () => 0, 1)).toBe(1_600);
    expect(nextSyncDelay(SYNC_INTERVAL_MS, middle, 0)).toBe(30_000);
  });
});

describe('API client', () => {
  it('sends credentials, JSON and the XSRF token on writes only', async () => {
    const seen: { url: string; init: RequestInit | undefined }[] = [];
    const api = createApiClient({
      baseUrl: 'http://x',
      fetch: async (url, init) => {
        seen.push({ url, init });
        return new Response('{"ok":true}', { status: 200 });
      },
      xsrfToken: () => 'tok%',
    });
    await api.get('/me');
    await api.post('/items', { title: 'a' });
    const [get, post] = seen;
    expect(get?.url).toBe('http://x/api/me');
    expect(get?.init?.credentials).toBe('include');
    expect(get?.init?.headers).not.toHaveProperty('X-XSRF-TOKEN');
    expect(post?.init?.headers).toMatchObject({
      'X-XSRF-TOKEN': 'tok%',
      'Content-Type': 'application/json',
      Accept: 'application/json',
    });
    expect(post?.init?.body).toBe('{"title":"a"}');
  });

  it('reports no response as NETWORK_ERROR and other failures with their status and message', async () => {
    const down = createApiClient({ fetch: async () => Promise.reject(new TypeError('fetch failed')) });
    const error = await down.get('/me').catch((e: unknown) => e);
    expect(isNetworkError(error)).toBe(true);
    const refusing = createApiClient({
      fetch: async () => new Response('{"message":"Invalid input."}', { status: 422 }),
    });
    await expect(refusing.post('/items', {})).rejects.toMatchObject({
      status: 422,
      message: 'Invalid input.',
    });
  });

  it('logs out to guest on a 401 before passing the error on', async () => {
    const order: string[] = [];
    const api = createApiClient({
      fetch: async () => new Response('{"message":"Unauthenticated."}', { status: 401 }),
      onUnauthorized: () => {
        order.push('logout');
      },
    });
    await api.get('/me').catch(() => order.push('rethrown'));
    expect(order).toEqual(['logout', 'rethrown']);
  });
});
