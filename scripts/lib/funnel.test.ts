import { describe, expect, it } from 'vitest';
import { FUNNEL, funnelProblems, QUEUE_OWNER, SCHEMA } from './funnel';

const FEATURE = 'src/client/data/items/itemsRepository.ts';
const SYNC = 'src/client/data/sync/push.ts';

describe('the funnel check (SYNC.md W8, Q13)', () => {
  it('W8: refuses a queue row or an undo record created outside the funnel', () => {
    const text = 'await db.syncQueue.add(entry);\nconst seq = await db.undo.add(record);\n';
    expect(funnelProblems(FEATURE, text)).toEqual([
      expect.stringContaining('itemsRepository.ts:1 changes syncQueue rows (add)'),
      expect.stringContaining('itemsRepository.ts:2 writes undo rows (add)'),
    ]);
  });

  it.each([
    ['a put', 'db.syncQueue.put(entry)', 'put'],
    ['a bulk add', 'db.syncQueue.bulkAdd(rows)', 'bulkAdd'],
    ['an update', 'await db.syncQueue.update(id, { retries: 1 })', 'update'],
    ['a delete', 'await db.syncQueue.delete(id)', 'delete'],
    ['a bulk delete', 'await db.syncQueue.bulkDelete(ids)', 'bulkDelete'],
    ['a clear', 'await db.syncQueue.clear()', 'clear'],
    [
      'a modify over a collection',
      'await db.syncQueue.toCollection().modify((e) => { e.url = x; })',
      'modify',
    ],
    [
      'a delete down a chain over several lines',
      "await db.syncQueue\n  .where('itemId')\n  .anyOf(ids)\n  .filter((e) => e.kind !== 'restore')\n  .delete();",
      'delete',
    ],
    [
      'a write by table name',
      "await tx.table<QueueEntry, string>('syncQueue').toCollection().modify(f)",
      'modify',
    ],
    ['a write by index', "await db['syncQueue'].delete(id)", 'delete'],
    ['a destructured table', 'const { syncQueue } = db;\nawait syncQueue.bulkDelete(ids);', 'bulkDelete'],
  ])('Q13: refuses %s of queue rows outside the queue’s owner', (_what, text, call) => {
    expect(funnelProblems(SYNC, text)).toEqual([expect.stringContaining(`changes syncQueue rows (${call})`)]);
    expect(funnelProblems(QUEUE_OWNER, text)).toEqual([]);
  });

  it('Q13: refuses raw writes of queue rows and raw IndexedDB access to the queue outside its owner', () => {
    expect(funnelProblems(FUNNEL, "rawWrite('syncQueue', row, null, true)")).toEqual([
      expect.stringContaining('writes syncQueue rows raw (rawWrite)'),
    ]);
    expect(funnelProblems(FUNNEL, "issueWrite(idb, 'syncQueue', row, null, true)")).toEqual([
      expect.stringContaining('writes syncQueue rows raw (issueWrite)'),
    ]);
    expect(funnelProblems(SYNC, "idb.objectStore('syncQueue').delete(key)")).toEqual([
      expect.stringContaining('changes syncQueue rows (delete)'),
      expect.stringContaining('opens syncQueue raw'),
    ]);
    expect(
      funnelProblems(QUEUE_OWNER, "rawWrite('syncQueue', row, null, true); idb.objectStore('syncQueue')"),
    ).toEqual([]);
  });

  it('W8: refuses undo records created raw or by table name outside the funnel', () => {
    expect(funnelProblems(FEATURE, "rawWrite('undo', record, null, true)")).toEqual([
      expect.stringContaining('writes undo rows raw (rawWrite)'),
    ]);
    expect(funnelProblems(FEATURE, "issueWrite(idb, 'undo', record, null, true)")).toEqual([
      expect.stringContaining('writes undo rows raw (issueWrite)'),
    ]);
    expect(funnelProblems(FEATURE, "await db.table('undo').put(record)")).toEqual([
      expect.stringContaining('writes undo rows (put)'),
    ]);
    expect(funnelProblems(FEATURE, "idb.objectStore('undo').add(record)")).toEqual([
      expect.stringContaining('writes undo rows (add)'),
    ]);
    expect(funnelProblems(FUNNEL, "rawWrite('undo', record, null, true) ?? db.undo.add(record)")).toEqual([]);
  });

  it('W8: only the funnel asks the queue’s owner to create rows', () => {
    expect(funnelProblems(SYNC, 'await enqueue(db, rows);\nenqueueRaw(idb, rows);')).toEqual([
      expect.stringContaining('push.ts:1 calls enqueue'),
      expect.stringContaining('push.ts:2 calls enqueueRaw'),
    ]);
    expect(funnelProblems(FUNNEL, 'work.push(enqueue(db, queued)); enqueueRaw(idb, queued);')).toEqual([]);
  });

  it('allows reads of the queue anywhere, deletes of undo records, tests and the schema’s upgrades', () => {
    const reads =
      "await db.syncQueue.where('itemId').equals(id).toArray();\nawait db.syncQueue.orderBy('seq').first();\nawait db.syncQueue.count();\nconst TABLES = ['items', 'syncQueue'];";
    expect(funnelProblems(SYNC, reads)).toEqual([]);
    expect(funnelProblems('src/client/data/changes/undoStack.ts', 'await db.undo.bulkDelete(keys)')).toEqual(
      [],
    );
    expect(
      funnelProblems('src/client/data/sync/push.test.ts', 'db.syncQueue.add(x); db.syncQueue.clear()'),
    ).toEqual([]);
    expect(
      funnelProblems(SCHEMA, "tx.table<QueueEntry, string>('syncQueue').toCollection().modify(f)"),
    ).toEqual([]);
    expect(funnelProblems(SCHEMA, 'db.syncQueue.clear()')).toEqual([
      expect.stringContaining('changes syncQueue rows (clear)'),
    ]);
  });
});
