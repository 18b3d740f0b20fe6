import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeFakeDbs, freshFakeDb } from '../../../../testkit/client/fakeDb';
import { serverItem } from '../../../../testkit/client/items';
import type { Item } from '../../../shared/item';
import { askFirstPage, FIRST_PAGE_KEPT_MS, forgetFirstPage, takeFirstPage } from './firstPage';
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
    const { api, asked } = fakeApi([]);
    askFirstPage(api as never);
    forgetFirstPage(api as never);
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
});
