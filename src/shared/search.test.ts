import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MATCH_RANK,
  matchExcerpt,
  matchRank,
  normalizeQuery,
  rankKeys,
  rankSearch,
  type SearchKey,
  searchKeyOf,
  sortByRelevance,
} from './search';

let nextId = 0;
const item = (title: string, updated = '01', description: string | null = null) => ({
  id: ++nextId,
  title,
  description,
  updated_at: `2024-01-${updated}T00:00:00.000Z`,
});

describe('search ranking', () => {
  it('needs two characters after trimming', () => {
    expect(normalizeQuery(' a ')).toBeNull();
    expect(normalizeQuery(' Ab ')).toBe('ab');
    expect(rankSearch([item('ab')], 'a')).toEqual([]);
  });

  it('ranks exact, prefix, whole word, other title, then description, before recency', () => {
    const description = item('Groceries', '09', 'buy paint');
    const inside = item('Repainting', '08');
    const word = item('Buy paint', '07');
    const prefix = item('Paint the fence', '06');
    const exact = item('Paint', '01');
    const none = item('Other', '10');
    const out = rankSearch([description, inside, word, prefix, exact, none], 'PAINT');
    expect(out.map((i) => i.title)).toEqual([
      'Paint',
      'Paint the fence',
      'Buy paint',
      'Repainting',
      'Groceries',
    ]);
  });

  it('orders equal ranks newest first, then by id', () => {
    const a = item('Paint a', '01');
    const b = item('Paint b', '05');
    const c = item('Paint c', '05');
    expect(rankSearch([a, b, c], 'paint').map((i) => i.title)).toEqual(['Paint c', 'Paint b', 'Paint a']);
  });

  it('sees words across punctuation and in other scripts', () => {
    expect(matchRank(item('fix: login-page'), 'login')).toBe(MATCH_RANK.word);
    expect(matchRank(item('fix loginpage'), 'login')).toBe(MATCH_RANK.title);
    expect(matchRank(item('Café crème'), 'crème')).toBe(MATCH_RANK.word);
    expect(matchRank(item('  Paint  '), 'paint')).toBe(MATCH_RANK.exact);
    expect(matchRank(item('x', '01', 'has Paint'), 'paint')).toBe(MATCH_RANK.description);
    expect(matchRank(item('x', '01', null), 'paint')).toBeNull();
  });

  it('keeps every server result, in the same order', () => {
    const server = [item('Old paint', '01'), item('Paint', '02'), item('ünicode', '03')];
    expect(sortByRelevance(server, 'paint').map((i) => i.title)).toEqual(['Paint', 'Old paint', 'ünicode']);
  });
});

const text = fc.string({ unit: fc.constantFrom('a', 'b', 'A', ' ', '-', 'é'), maxLength: 10 });
const day = fc.integer({ min: 1, max: 28 }).map((d) => String(d).padStart(2, '0'));
const items = fc
  .array(fc.record({ title: text, description: fc.option(text), updated: day }), { maxLength: 30 })
  .map((rows) => rows.map((r, index) => ({ ...item(r.title, r.updated, r.description), id: index + 1 })));
const query = fc.string({ unit: fc.constantFrom('a', 'b', 'A', ' ', '-'), minLength: 2, maxLength: 4 });

describe('search ranking properties', () => {
  it('returns exactly the items whose title or description contains the query', () => {
    fc.assert(
      fc.property(items, query, (all, raw) => {
        const q = normalizeQuery(raw);
        const out = rankSearch(all, raw);
        if (q === null) {
          expect(out).toEqual([]);
          return;
        }
        const expected = all.filter(
          (i) => i.title.toLowerCase().includes(q) || !!i.description?.toLowerCase().includes(q),
        );
        expect(new Set(out)).toEqual(new Set(expected));
        expect(out).toHaveLength(expected.length);
      }),
    );
  });

  it('never puts a worse match, or an older one of the same rank, first', () => {
    fc.assert(
      fc.property(items, query, (all, raw) => {
        const q = normalizeQuery(raw);
        if (q === null) return;
        const out = rankSearch(all, raw);
        for (let i = 1; i < out.length; i++) {
          const [a, b] = [out[i - 1]!, out[i]!];
          const [ra, rb] = [matchRank(a, q)!, matchRank(b, q)!];
          expect(ra).toBeLessThanOrEqual(rb);
          if (ra === rb) expect(a.updated_at >= b.updated_at).toBe(true);
        }
      }),
    );
  });

  it('a limit keeps the head of the full order; the server order is a permutation', () => {
    fc.assert(
      fc.property(items, query, fc.integer({ min: 0, max: 12 }), (all, raw, limit) => {
        const full = rankSearch(all, raw);
        expect(rankSearch(all, raw, limit)).toEqual(full.slice(0, limit));
        const resorted = sortByRelevance([...full].reverse(), raw);
        expect(resorted).toEqual(full);
      }),
    );
  });
});

describe('ranking search keys', () => {
  it('finds the same items in the same order as rankSearch, the best `limit` of them', () => {
    const word = fc.constantFrom(
      'Paint',
      'paint',
      'PAINT',
      'fence',
      'Fence post',
      'painted',
      'x',
      ' paint ',
      'Crème',
    );
    const text = fc.array(word, { minLength: 0, maxLength: 4 }).map((w) => w.join(' '));
    const items = fc.uniqueArray(
      fc.record({
        id: fc.integer({ min: 1, max: 10_000 }),
        title: text,
        description: fc.option(text, { nil: null }),
        updated_at: fc
          .integer({ min: 1, max: 28 })
          .map((d) => `2024-01-${String(d).padStart(2, '0')}T00:00:00.000Z`),
      }),
      { selector: (i) => i.id, maxLength: 60 },
    );
    const query = fc.constantFrom('paint', 'PAINT ', 'fence', 'crème', 'nt', 'x', 'post');
    // Small limits too: the best fill early and most keys are turned away before their word test.
    const limit = fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 70 }));
    fc.assert(
      fc.property(items, query, limit, fc.array(fc.nat()), (list, q, n, holes) => {
        const expected = rankSearch(list, q, n).map((i) => i.id);
        const keys: (SearchKey | undefined)[] = list.map(searchKeyOf);
        // Free places in a list of keys by place are passed over.
        for (const h of holes) keys.splice(h % (keys.length + 1), 0, undefined);
        expect(rankKeys(keys, q, n).map((k) => k.id)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe('comment matches', () => {
  it('puts a result found by a comment after the description matches', () => {
    const t = '2026-01-01T00:00:00.000Z';
    const newer = '2026-02-01T00:00:00.000Z';
    const byComment = {
      id: 1,
      title: 'Boats',
      updated_at: newer,
      matched_comment: { id: 9, excerpt: 'quince' },
    };
    const byDescription = { id: 2, title: 'Jam', description: 'quince jam', updated_at: t };
    const byTitle = { id: 3, title: 'Quince', updated_at: t };
    expect(sortByRelevance([byComment, byDescription, byTitle], 'quince').map((i) => i.id)).toEqual([
      3, 2, 1,
    ]);
  });

  it('excerpts the words around the match, cut at words, with an ellipsis where text was left out', () => {
    expect(matchExcerpt('  short\n text  ', 'text')).toBe('short text');
    const long = `${'alpha '.repeat(20)}the needle sits here ${'omega '.repeat(20)}`;
    const excerpt = matchExcerpt(long, 'needle', 40);
    expect(excerpt).toMatch(/^….*needle.*…$/);
    expect(excerpt.length).toBeLessThanOrEqual(42);
    expect(excerpt).not.toMatch(/…lpha/);
    // A text not holding the query (a mention token matched as stored) gives its start.
    expect(matchExcerpt(long, 'zzz', 40).startsWith('alpha alpha')).toBe(true);
  });
});
