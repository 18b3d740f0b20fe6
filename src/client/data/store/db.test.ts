import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { DB_VERSION, OutpostDb } from './db';

describe('the database upgrade', () => {
  it('Q10: version 2 gives every queued entry its kind and keeps every unsynced change, in order', async () => {
    const indexedDB = new IDBFactory();
    const old = new Dexie('Outpost-upgrade', { indexedDB, IDBKeyRange });
    old.version(1).stores({
      items: 'id, type, user_id, assigned_to, parent_id, status, _syncStatus, uuid, updated_at, _conflict',
      users: 'id',
      contacts: '++id, user_id, contact_phone',
      syncQueue: 'id, &seq, itemId, tag',
      meta: 'key',
    });
    const row = (seq: number, method: string, url: string) => ({
      id: `e${seq}`,
      seq,
      method,
      url,
      data: null,
      timestamp: seq,
      retries: 0,
      idempotencyKey: `k${seq}`,
      baseVersion: null,
      itemId: 5,
      tag: null,
    });
    await old
      .table('syncQueue')
      .bulkAdd([
        row(1, 'POST', '/api/items'),
        row(2, 'PATCH', '/api/items/5'),
        row(3, 'POST', '/api/items/5/assign'),
        row(4, 'DELETE', '/api/items/5'),
      ]);
    old.close();

    const db = new OutpostDb('Outpost-upgrade', { indexedDB, IDBKeyRange });
    const entries = await db.syncQueue.orderBy('seq').toArray();
    expect(db.verno).toBe(DB_VERSION);
    expect(entries.map((e) => [e.id, e.kind])).toEqual([
      ['e1', 'create'],
      ['e2', 'update'],
      ['e3', 'assign'],
      ['e4', 'delete'],
    ]);
    db.close();
  });
});
