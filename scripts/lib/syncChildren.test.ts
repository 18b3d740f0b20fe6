import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './paths';
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
      syncChildrenProblems('src/client/data/sync/x.ts', 'db.notes.get(1)', {
        stores: ['notes'],
        identifiers: [],
      }),
    ).toHaveLength(1);
  });
});

// The shape of sync/ before issue 63's follow-up: a queue row named its child per kind, and the wipe
// named the file store.
const QUEUE_BEFORE = `import { FILE_BLOBS_STORE } from '../store/fileBlobs';
export interface NewEntry {
  kind: QueueKind;
  /** The comment a comment_ entry is about. */
  commentId?: number;
  timeEntry?: { uuid: string; ref: string };
  attachment?: { uuid: string; ref: string };
}
export function queueRows(entries: readonly NewEntry[]) {
  return entries.map((entry) => ({
    ...queueRequest(entry.kind, entry.itemId, entry.commentId, entry.timeEntry?.ref ?? entry.attachment?.ref),
    ...(entry.commentId !== undefined ? { commentId: entry.commentId } : {}),
  }));
}
const GUEST_ROWS = {
  [FILE_BLOBS_STORE]: (t, userId) => t.where('owner').noneOf([0, userId]).delete(),
};
`;

// The same code as it is now: one generic child, and the owned stores from the store layer's list.
const QUEUE_AFTER = `import { OWNED_STORES } from '../store/db';
export interface NewEntry {
  kind: QueueKind;
  /** The child an entry is about (a comment's id, a time entry's or an attachment's uuid). */
  child?: { id?: number; uuid?: string; ref?: string };
}
export function queueRows(entries: readonly NewEntry[]) {
  // Once named commentId, timeEntry and attachment (a comment is no code).
  return entries.map((entry) => ({
    ...queueRequest(entry.kind, entry.itemId, 0, entry.child?.ref ?? ''),
    ...(entry.child ? { child: entry.child } : {}),
  }));
}
const GUEST_ROWS = { ...Object.fromEntries(OWNED_STORES.map((store) => [store, keepOwners])) };
`;

describe('the sync modules name no queue field of one child kind and no feature store', () => {
  it('finds each per-kind queue field and the file store’s constant in the old shape, by line', () => {
    const lines = syncChildrenProblems('src/client/data/sync/queue.ts', QUEUE_BEFORE).map((p) =>
      p.replace(/^src\/client\/data\/sync\/queue\.ts:(\d+) names '(\w+)'.*$/, '$2@$1'),
    );
    expect(lines.sort()).toEqual(
      [
        'FILE_BLOBS_STORE@1',
        'FILE_BLOBS_STORE@16',
        'attachment@7',
        'attachment@11',
        'commentId@5',
        'commentId@11',
        'commentId@12',
        'commentId@12',
        'commentId@12',
        'timeEntry@6',
        'timeEntry@11',
      ].sort(),
    );
  });

  it('passes the generic shape, whose comments may still say what the fields were', () => {
    expect(syncChildrenProblems('src/client/data/sync/queue.ts', QUEUE_AFTER)).toEqual([]);
  });

  it('finds the file store by name, quoted or as db.<store>', () => {
    const text = "await db.fileBlobs.clear();\ndb.table('fileBlobs');\n";
    expect(syncChildrenProblems('src/client/data/sync/x.ts', text).map((p) => p.split(' ')[0])).toEqual([
      'src/client/data/sync/x.ts:1',
      'src/client/data/sync/x.ts:2',
    ]);
  });

  it('leaves longer names, URLs in strings, the tests and the features alone', () => {
    expect(
      syncChildrenProblems(
        'src/client/data/sync/x.ts',
        "const a = commentIdOf(e) + e.attachments_count; fetch('https://x/attachment'); // commentId\n/* timeEntry */\n",
      ),
    ).toEqual([]);
    expect(syncChildrenProblems('src/client/data/sync/x.test.ts', 'e.commentId')).toEqual([]);
    expect(syncChildrenProblems('src/client/data/comments/x.ts', 'e.commentId')).toEqual([]);
  });

  it('holds for the sync modules as they are', () => {
    const dir = path.join(repoRoot, 'src/client/data/sync');
    const problems = readdirSync(dir).flatMap((name) =>
      syncChildrenProblems(`src/client/data/sync/${name}`, readFileSync(path.join(dir, name), 'utf8')),
    );
    expect(problems).toEqual([]);
  });
});
