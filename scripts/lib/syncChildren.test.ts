import { describe, expect, it } from 'vitest';
import { syncChildrenProblems } from './syncChildren';

describe('the sync modules name no child store', () => {
  it('finds db.<store> and the store quoted in a sync module, with its line', () => {
    const text = "const a = 1;\nawait db.comments.clear();\ndb.table('timeEntries');\n";
    expect(syncChildrenProblems('src/client/data/sync/settle.ts', text)).toEqual([
      expect.stringMatching(/^src\/client\/data\/sync\/settle\.ts:2 names the 'comments' store/),
      expect.stringMatching(/^src\/client\/data\/sync\/settle\.ts:3 names the 'timeEntries' store/),
    ]);
  });

  it('finds a store as a property or an object key too', () => {
    const text = 'const rows = {\n  timeEntries: (t) => t.clear(),\n};\npage.comments.length;\n';
    expect(syncChildrenProblems('src/client/data/sync/x.ts', text).map((p) => p.split(' ')[0])).toEqual([
      'src/client/data/sync/x.ts:4',
      'src/client/data/sync/x.ts:2',
    ]);
  });

  it('leaves a word that only contains a store name, the tests and other folders alone', () => {
    expect(syncChildrenProblems('src/client/data/sync/x.ts', 'db.commentsCount; // comments\n')).toEqual([]);
    expect(syncChildrenProblems('src/client/data/sync/x.test.ts', 'db.comments.count()')).toEqual([]);
    expect(syncChildrenProblems('src/client/data/comments/x.ts', 'db.comments.count()')).toEqual([]);
  });

  it('holds for a child kind declared later, by its store', () => {
    expect(
      syncChildrenProblems('src/client/data/sync/x.ts', 'db.attachments.get(1)', ['attachments']),
    ).toHaveLength(1);
  });
});
