import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeFakeDbs, freshFakeDb } from '../../../../testkit/client/fakeDb';
import { serverItem } from '../../../../testkit/client/items';
import type { Item } from '../../../shared/item';
import { type FirstRows, firstRowsOf, subscribeFirstRows } from '../store/firstRows';
import {
  askFirstPage,
  askFirstPageAhead,
  checkFreshDevice,
  FIRST_PAGE_KEPT_MS,
  forgetFirstPage,
  takeFirstPage,
} from './firstPage';
import { pull } from './pull';

afterEach(() => {
  closeFakeDbs();
  vi.useRealTimers();
});

/** A server of one page per cursor that records what it is asked, answering each as `answer` says. */
function fakeApi(items: Item[], answer: (path: string, n: number) => 'ok' | 'fail' = () => 'ok') {
  const asked: string[] = [];
  const api = {
    get: async (path: string) => {
      asked.push(path);
      if (answer(path, asked.length) === 'fail') throw new Error('offline');
      return { data: { items, comments: [], cursor: 'c1', has_more: false } };
    },
  };
  return { api, asked };
}

describe('a first page asked for ahead', () => {
  it('L16: the pull takes it instead of asking again, and only once', async () => {
    const db = freshFakeDb('first-page');
    const { api, asked } = fakeApi([serverItem(7, 'Made elsewhere')]);
    askFirstPage(api as never);
    expect(asked).toEqual(['/sync?cursor=']);
    await pull({ db, api: api as never });
    expect(asked).toEqual(['/sync?cursor=']);
    expect((await db.items.toArray()).map((i) => i.title)).toEqual(['Made elsewhere']);
    expect(takeFirstPage(api as never)).toBeNull();
  });

  it('L16: one that failed is asked for again by the pull', async () => {
    const db = freshFakeDb('first-page');
    const { api, asked } = fakeApi([serverItem(7, 'Made elsewhere')], (_, n) => (n === 1 ? 'fail' : 'ok'));
    askFirstPage(api as never);
    await pull({ db, api: api as never });
    expect(asked).toEqual(['/sync?cursor=', '/sync?cursor=']);
    expect(await db.items.count()).toBe(1);
  });

  it('L16: one asked for before a sign-out, or waiting too long, is never taken', () => {
    const db = freshFakeDb('first-page');
    const { api, asked } = fakeApi([]);
    askFirstPage(api as never);
    forgetFirstPage(db, api as never);
    expect(takeFirstPage(api as never)).toBeNull();
    vi.useFakeTimers();
    askFirstPage(api as never);
    vi.advanceTimersByTime(FIRST_PAGE_KEPT_MS + 1);
    expect(takeFirstPage(api as never)).toBeNull();
    expect(asked).toHaveLength(2);
  });

  it('L16: a pull after a cursor never takes it', async () => {
    const db = freshFakeDb('first-page');
    const { api, asked } = fakeApi([]);
    await db.meta.put({ key: 'cursor', value: 'c0' });
    askFirstPage(api as never);
    await pull({ db, api: api as never });
    expect(asked).toEqual(['/sync?cursor=', '/sync?cursor=c0']);
  });

  it('L16: a device known to hold a cursor asks for nothing as the sign-in answers', async () => {
    const db = freshFakeDb('first-page');
    const { api, asked } = fakeApi([]);
    await db.meta.put({ key: 'cursor', value: 'c0' });
    await checkFreshDevice(db, api as never).fresh;
    askFirstPageAhead(db, api as never);
    expect(asked).toEqual([]);
    expect(takeFirstPage(api as never)).toBeNull();
  });

  it('L16: an answer before the cursor is read asks at once, and drops the page when the read finds a cursor', async () => {
    const db = freshFakeDb('first-page');
    const { api, asked } = fakeApi([]);
    await db.meta.put({ key: 'cursor', value: 'c0' });
    const check = checkFreshDevice(db, api as never);
    askFirstPageAhead(db, api as never);
    expect(asked).toEqual(['/sync?cursor=']);
    await check.fresh;
    await Promise.resolve();
    expect(takeFirstPage(api as never)).toBeNull();
  });

  it('L16: a device with no cursor asks as the answer arrives, even before the read settles, and the pull takes that page', async () => {
    const db = freshFakeDb('first-page');
    const { api, asked } = fakeApi([serverItem(7, 'Made elsewhere')]);
    checkFreshDevice(db, api as never);
    askFirstPageAhead(db, api as never);
    expect(asked).toEqual(['/sync?cursor=']);
    await pull({ db, api: api as never });
    expect(asked).toEqual(['/sync?cursor=']);
    expect((await db.items.toArray()).map((i) => i.title)).toEqual(['Made elsewhere']);
  });

  it('L16: an answer with no read before it (a sign-in that did not pass through beforeLogin) reads the cursor itself', async () => {
    const db = freshFakeDb('first-page');
    const { api, asked } = fakeApi([]);
    askFirstPageAhead(db, api as never);
    expect(asked).toEqual(['/sync?cursor=']);
    await pull({ db, api: api as never });
    expect(asked).toEqual(['/sync?cursor=']);
  });

  it('L17: a first page asked for ahead is on Home from memory as it arrives, before any pull, and the pull drops it once stored', async () => {
    const db = freshFakeDb('first-page');
    const { api } = fakeApi([serverItem(7, 'Made elsewhere')]);
    const seen: (FirstRows | null)[] = [];
    subscribeFirstRows(db, () => seen.push(firstRowsOf(db)));
    askFirstPageAhead(db, api as never);
    await until(() => firstRowsOf(db) !== null);
    expect(await db.items.count()).toBe(0);
    await pull({ db, api: api as never });
    expect(seen.map((s) => s && { titles: s.rows.map((r) => r.title), stored: s.stored })).toEqual([
      { titles: ['Made elsewhere'], stored: false },
      { titles: ['Made elsewhere'], stored: true },
      null,
    ]);
    expect((await db.items.toArray()).map((i) => i.title)).toEqual(['Made elsewhere']);
  });

  it('L17: rows shown ahead go when the cursor read finds one, and at a sign-out', async () => {
    const db = freshFakeDb('first-page');
    const { api } = fakeApi([serverItem(7, 'Made elsewhere')]);
    askFirstPageAhead(db, api as never);
    await until(() => firstRowsOf(db) !== null);
    forgetFirstPage(db, api as never);
    expect(firstRowsOf(db)).toBeNull();

    const held = freshFakeDb('first-page-held');
    await held.meta.put({ key: 'cursor', value: 'c0' });
    let answer: (page: unknown) => void = () => undefined;
    const slow = { get: () => new Promise((resolve) => (answer = resolve)) };
    const check = checkFreshDevice(held, slow as never);
    askFirstPageAhead(held, slow as never);
    await check.fresh;
    answer({ data: { items: [serverItem(8, 'Late')], comments: [], cursor: 'c1', has_more: false } });
    await new Promise((r) => setTimeout(r, 10));
    expect(firstRowsOf(held)).toBeNull();
  });

  it('L17: a bootstrap pull that fails after its first page arrived shows only what is stored', async () => {
    const db = freshFakeDb('first-page');
    const seen: (FirstRows | null)[] = [];
    subscribeFirstRows(db, () => seen.push(firstRowsOf(db)));
    const api = {
      get: async () => {
        // The cursor moves under the pull (Clear Local Data): its page is never stored (L10).
        await db.meta.put({ key: 'cursor', value: 'reset' });
        return {
          data: { items: [serverItem(7, 'Never stored')], comments: [], cursor: 'c1', has_more: false },
        };
      },
    };
    await pull({ db, api: api as never });
    expect(seen.map((s) => (s ? s.stored : null))).toEqual([false, null]);
    expect(await db.items.count()).toBe(0);
  });
});

/** Polls until the condition holds, failing after `ms`. */
async function until(done: () => boolean, ms = 3000): Promise<void> {
  for (let waited = 0; !done(); waited += 5) {
    if (waited > ms) throw new Error(`timed out: ${String(done)}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
