import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rankKeys, type SearchKey, searchKeyOf } from './search';
import { createSearchIndex, intersectSorted, JoinedTexts } from './searchIndex';

const key = (id: number, title: string, description: string | null = null, day = 1): SearchKey =>
  searchKeyOf({
    id,
    title,
    description,
    updated_at: `2024-01-${String(day).padStart(2, '0')}T00:00:00.000Z`,
  });

describe('the search index', () => {
  it('finds a key by any part of its title or description, and ranks as rankKeys does', () => {
    const index = createSearchIndex();
    const all = [
      key(1, 'Paint the fence'),
      key(2, 'Repainting', null, 3),
      key(3, 'Groceries', 'buy paint', 9),
      key(4, 'Paint'),
      key(5, 'Other'),
    ];
    for (const k of all) index.set(k);
    expect(index.search('PAINT', 50).map((k) => k.id)).toEqual([4, 1, 2, 3]);
    expect(index.search('paint', 2).map((k) => k.id)).toEqual([4, 1]);
    expect(index.search('nting', 50).map((k) => k.id)).toEqual([2]);
    expect(index.search('zzz', 50)).toEqual([]);
    expect(index.search('p', 50)).toEqual([]);
  });

  it('answers a query shorter than a gram from every key', () => {
    const index = createSearchIndex();
    index.set(key(1, 'ab'));
    index.set(key(2, 'xaby', null, 2));
    index.set(key(3, 'a b'));
    expect(index.search('AB', 50).map((k) => k.id)).toEqual([1, 2]);
  });

  it('forgets the grams a key no longer has after an edit or a delete', () => {
    const index = createSearchIndex();
    index.set(key(1, 'Paint the fence', 'with care'));
    index.set(key(2, 'Order paint'));
    index.set(key(1, 'Call Bob', 'about the fence'));
    expect(index.search('paint', 50).map((k) => k.id)).toEqual([2]);
    expect(index.search('care', 50)).toEqual([]);
    expect(index.search('fence', 50).map((k) => k.id)).toEqual([1]);
    expect(index.delete(2)).toBe(true);
    expect(index.delete(2)).toBe(false);
    expect(index.search('paint', 50)).toEqual([]);
    index.delete(1);
    // Nothing left behind: a posting that empties is dropped with its gram.
    expect(index.stats()).toEqual({ keys: 0, grams: 0, postings: 0 });
  });

  it('meeting keys newest first, counts a description match only once every title candidate is met', () => {
    const index = createSearchIndex({ directCandidates: 0, walkBudget: 100 });
    index.set(key(1, 'b aab', null, 1));
    index.set(key(2, 'baab', null, 2));
    index.set(key(3, 'x', 'aab', 4));
    index.set(key(4, 'y', 'aab', 3));
    // The oldest is the only whole-word match: it ranks first though three newer keys match worse.
    expect(index.search('aab', 1).map((k) => k.id)).toEqual([1]);
    expect(index.search('aab', 3).map((k) => k.id)).toEqual([1, 2, 3]);
  });

  it('holds each gram of a key once, however often the key repeats it', () => {
    const index = createSearchIndex();
    index.set(key(7, 'aaaa aaaa', 'aaaa'));
    expect(index.stats()).toEqual({ keys: 1, grams: 5, postings: 5 });
  });
});

const sortedIds = fc
  .uniqueArray(fc.integer({ min: -50, max: 200 }), { maxLength: 120, size: 'max' })
  .map((a) => a.sort((x, y) => x - y));

describe('search index properties', () => {
  it('intersects two ascending id lists exactly', () => {
    fc.assert(
      // Lists of like length (stepped through together) and a short one against a long one (galloped).
      fc.property(sortedIds, sortedIds, fc.nat(), (a, b, keep) => {
        expect(intersectSorted(a, b)).toEqual(a.filter((id) => b.includes(id)));
        const few = a.filter((_, i) => (i + keep) % 13 === 0);
        expect(intersectSorted(few, b)).toEqual(few.filter((id) => b.includes(id)));
      }),
    );
  });

  it('finds in joined texts exactly the texts that hold the query, whatever they hold', () => {
    // Few letters, so hits are many and some run over a text's end; the separator ('\u0000') too.
    const piece = fc.string({ unit: fc.constantFrom('a', 'b', '\u0000', 'é', '😀'), maxLength: 6 });
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), piece, (texts, q) => {
        fc.pre(q.length > 0);
        const hits: number[] = [];
        new JoinedTexts(texts).holding(q, (i) => hits.push(i));
        expect(hits).toEqual(texts.flatMap((t, i) => (t.includes(q) ? [i] : [])));
      }),
      { numRuns: 500 },
    );
  });

  // Mostly three characters, so many keys match one query and the early stop is tried; now and then
  // letters whose lower case is longer ('İ' → 'i̇'), astral characters (two code units), case,
  // punctuation that word edges see, and any text at all.
  const unit = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom('a', 'b', ' ') },
    { weight: 1, arbitrary: fc.constantFrom('A', 'B', '-', '.', 'é', 'É', 'İ', 'ß', '😀', 'Ω') },
  );
  const text = fc.oneof(
    { weight: 6, arbitrary: fc.string({ unit, maxLength: 8 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  );
  const id = fc.integer({ min: -3, max: 20 });
  const op = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('set' as const),
        id,
        title: text,
        description: fc.option(text, { nil: null }),
        day: fc.integer({ min: 1, max: 4 }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), id }) },
  );
  // Raw queries of any length (1–2 characters included), or a piece of a text written earlier.
  const query = fc.oneof(
    fc.string({ unit, minLength: 1, maxLength: 4 }),
    fc.record({ op: fc.nat(), from: fc.nat(), length: fc.integer({ min: 1, max: 5 }), upper: fc.boolean() }),
  );

  // The index's ways to answer (ranking candidates directly, meeting them newest first and stopping
  // early, giving that up) and its two ways to keep its orders (moving one key, merging), each forced.
  const tuning = fc.record({
    directCandidates: fc.constantFrom(0, 4, 2_000),
    walkBudget: fc.constantFrom(0, 3, 2_000),
    deferred: fc.boolean(),
    movesBeforeMerge: fc.constantFrom(0, 3, 256),
    fewMoved: fc.constantFrom(0, 2, 32),
    rejoinAfter: fc.constantFrom(0, 2, 1_000),
  });
  const step = fc.oneof(
    { weight: 3, arbitrary: op },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('catchUp' as const), max: fc.integer({ min: 0, max: 6 }) }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('query' as const),
        raw: query,
        limit: fc.integer({ min: 1, max: 12 }),
      }),
    },
  );

  it('answers every query exactly as rankKeys over the same keys, between any edits and deletes', () => {
    fc.assert(
      fc.property(tuning, fc.array(step, { minLength: 10, maxLength: 80, size: 'max' }), (tune, steps) => {
        const { deferred, ...options } = tune;
        const index = createSearchIndex(options);
        // Held keys: queries scan until catch-up steps have posted them all.
        if (deferred) index.defer();
        const model = new Map<number, SearchKey>();
        const written: string[] = [];
        for (const s of steps) {
          if (s.kind === 'delete') {
            expect(index.delete(s.id)).toBe(model.delete(s.id));
          } else if (s.kind === 'catchUp') {
            index.catchUp(s.max);
          } else if (s.kind === 'set') {
            const k = key(s.id, s.title, s.description, s.day);
            index.set(k);
            model.set(s.id, k);
            written.push(s.title, s.description ?? '');
          } else {
            let q: string;
            if (typeof s.raw === 'string') q = s.raw;
            else {
              const source = written[s.raw.op % Math.max(1, written.length)] ?? '';
              const start = s.raw.from % Math.max(1, source.length);
              q = source.slice(start, start + s.raw.length);
              if (s.raw.upper) q = q.toUpperCase();
            }
            expect(index.search(q, s.limit)).toEqual(rankKeys(model.values(), q, s.limit));
          }
          expect(index.size).toBe(model.size);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('builds its orders a slice at a time while keys change, and then answers as rankKeys', () => {
    fc.assert(
      fc.property(
        fc.array(op, { minLength: 20, maxLength: 60, size: 'max' }),
        fc.array(op, { maxLength: 30, size: 'max' }),
        fc.integer({ min: 1, max: 5 }),
        fc.array(query, { minLength: 1, maxLength: 6 }),
        (first, during, slice, queries) => {
          // The walk that trusts the orders answers every query (nothing is ranked directly).
          const index = createSearchIndex({ directCandidates: 0, walkBudget: 2_000 });
          const model = new Map<number, SearchKey>();
          const written: string[] = [];
          const apply = (o: (typeof first)[number]) => {
            if (o.kind === 'delete') {
              index.delete(o.id);
              model.delete(o.id);
            } else {
              const k = key(o.id, o.title, o.description, o.day);
              index.set(k);
              model.set(o.id, k);
              written.push(o.title, o.description ?? '');
            }
          };
          index.defer();
          for (const o of first) apply(o);
          // Small slices: the orders take many calls, and keys change between them.
          let left = index.catchUp(slice);
          for (let n = 0; left > 0; n++) {
            const o = during[n];
            if (o) apply(o);
            left = index.catchUp(slice);
          }
          for (const raw of queries) {
            let q: string;
            if (typeof raw === 'string') q = raw;
            else {
              const source = written[raw.op % Math.max(1, written.length)] ?? '';
              const start = raw.from % Math.max(1, source.length);
              q = source.slice(start, start + raw.length) || 'a';
            }
            expect(index.search(q, 3)).toEqual(rankKeys(model.values(), q, 3));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('holds exactly the grams of the keys it keeps, whatever came and went', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40, size: 'max' }), fc.nat(40), (ops, deferUntil) => {
        const index = createSearchIndex();
        const fresh = createSearchIndex();
        const model = new Map<number, SearchKey>();
        // Some keys held without grams (defer), the rest posted as they come, all posted by catchUp.
        index.defer();
        for (const [n, o] of ops.entries()) {
          if (n === deferUntil) index.catchUp(Number.POSITIVE_INFINITY);
          if (o.kind === 'delete') {
            index.delete(o.id);
            model.delete(o.id);
          } else {
            const k = key(o.id, o.title, o.description, o.day);
            index.set(k);
            model.set(o.id, k);
          }
        }
        expect(index.catchUp(Number.POSITIVE_INFINITY)).toBe(0);
        for (const k of model.values()) fresh.set(k);
        expect(index.stats()).toEqual(fresh.stats());
      }),
    );
  });
});
