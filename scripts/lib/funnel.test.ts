import { describe, expect, it } from 'vitest';
import { FUNNEL, funnelProblems } from './funnel';

describe('the funnel check (SYNC.md W8)', () => {
  it('W8: refuses a queue row or an undo record created outside the funnel', () => {
    const text = 'await db.syncQueue.add(entry);\nconst seq = await db.undo.add(record);\n';
    expect(funnelProblems('src/client/data/items/itemsRepository.ts', text)).toEqual([
      expect.stringContaining('itemsRepository.ts:1 writes syncQueue rows (add)'),
      expect.stringContaining('itemsRepository.ts:2 writes undo rows (add)'),
    ]);
  });

  it('allows the funnel itself, tests, updates and deletes of queue entries', () => {
    expect(funnelProblems(FUNNEL, 'db.syncQueue.bulkAdd(rows)')).toEqual([]);
    expect(funnelProblems('src/client/data/sync/push.test.ts', 'db.syncQueue.add(x)')).toEqual([]);
    expect(
      funnelProblems('src/client/data/sync/push.ts', 'db.syncQueue.update(id, {}); db.syncQueue.delete(id)'),
    ).toEqual([]);
  });
});
