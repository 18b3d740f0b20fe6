import Dexie from 'dexie';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { closeFakeDbs, freshFakeDb } from '../../../../testkit/client/fakeDb';
import { getManyBySpan, mostRowsBetween } from './spanReads';

afterEach(closeFakeDbs);

describe('reads by span (spanReads.ts)', () => {
  it('bounds the rows a span of integer ids or [id, scope] counters can hold, and nothing else', () => {
    expect(mostRowsBetween(5, 5)).toBe(1);
    expect(mostRowsBetween(-3, 10)).toBe(14);
    expect(mostRowsBetween([4, 'a'], [6, 'g'])).toBe(6);
    expect(mostRowsBetween([4, 'a'], ['rows', 'all'])).toBeUndefined();
    expect(mostRowsBetween('a', 'b')).toBeUndefined();
    expect(mostRowsBetween(1.5, 4)).toBeUndefined();
  });

  it('answers exactly what one read per key answers, dense or spread, present or not', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: -50, max: 3_000 }), { maxLength: 300 }),
        fc.array(fc.integer({ min: -60, max: 3_100 }), { maxLength: 120 }),
        fc.constantFrom(2, 16),
        async (stored, wanted, perKey) => {
          const db = freshFakeDb('span');
          const counts = stored.map((id) => ({ parent: id, scope: id % 2 ? 'a' : 'g', n: 1 }));
          await db.table('counts').bulkPut(counts);
          const keys = wanted.map((id): [number, string] => [id, id % 2 ? 'a' : 'g']);
          const [bySpan, each] = await db.transaction('r', db.table('counts'), () => {
            const trans = (Dexie.currentTransaction as unknown as { idbtrans: IDBTransaction }).idbtrans;
            const table = db.core.table('counts');
            return Dexie.Promise.all([
              getManyBySpan(table, trans as never, keys, perKey),
              table.getMany({ trans: trans as never, keys }),
            ]);
          });
          expect(bySpan).toEqual(each);
          db.close();
        },
      ),
      { numRuns: 40 },
    );
  });
});
