import { describe, expect, it } from 'vitest';
import { DEXIE_ADAPTER, dexiePrivateProblems } from './dexiePrivates';

describe("the check of Dexie's private internals", () => {
  it('refuses a private field of Dexie named outside the adapter, in code and tests alike', () => {
    const text = 'const parts = idb.mutatedParts;\nconst z = Dexie.Promise.PSD.subscr;\ntrans._cache = {};\n';
    expect(dexiePrivateProblems('src/client/data/store/rawWrites.ts', text)).toEqual([
      expect.stringContaining("rawWrites.ts:1 names Dexie's private mutatedParts"),
      expect.stringContaining("rawWrites.ts:2 names Dexie's private PSD"),
      expect.stringContaining("rawWrites.ts:2 names Dexie's private subscr"),
      expect.stringContaining("rawWrites.ts:3 names Dexie's private _cache"),
    ]);
    expect(dexiePrivateProblems('src/client/data/sync/pull.test.ts', '(db as any)._deps')).toHaveLength(1);
    expect(dexiePrivateProblems('bench/browser/localWrites.ts', "idb['_explicit'] = true")).toHaveLength(1);
  });

  it('allows the adapter itself, and names that only contain a private one', () => {
    expect(dexiePrivateProblems(DEXIE_ADAPTER, 'idb.mutatedParts; PSD.subscr; db._deps')).toEqual([]);
    expect(
      dexiePrivateProblems('src/client/data/store/db.ts', 'const subscription = x; this._cached = 1; PSDs'),
    ).toEqual([]);
    expect(dexiePrivateProblems('scripts/lib/dexiePrivates.ts', 'mutatedParts')).toEqual([]);
    expect(
      dexiePrivateProblems(
        'src/client/data/search/search.ts',
        "import { keysOfPart } from '../store/mutatedParts';",
      ),
    ).toEqual([]);
  });
});
