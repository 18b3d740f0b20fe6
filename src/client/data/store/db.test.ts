import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { localItem } from '../../../../testkit/client/items';
import { ITEM_QUEUE_KINDS, queueRequest } from '../../../shared/protocol';
import {
  CALENDAR_INDEX,
  DB_VERSION,
  kindOfRequest,
  OutpostDb,
  STORES_V14,
  STORES_V15,
  STORES_V17,
  STORES_V18,
  UNREAD_INDEXES_V15,
} from './db';
import { withKeys } from './listKeys';

describe('the database upgrade', () => {
  it('reads each item request’s kind back from its method and URL, as version 2 does', () => {
    // Entries stored before version 2 were all items' (comments came in version 13).
    for (const kind of ITEM_QUEUE_KINDS) {
      const { method, url } = queueRequest(kind, 7);
      expect(kindOfRequest(method, url)).toBe(kind);
    }
  });

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

  it('versions 15 and 16 delete the items indexes no query reads, add the time entries and keep every item and unsynced change', async () => {
    const indexedDB = new IDBFactory();
    const old = new Dexie('Outpost-v14', { indexedDB, IDBKeyRange });
    old.version(14).stores(STORES_V14);
    const items = [
      withKeys({ ...localItem(1, 'Synced'), _top: 1 }),
      withKeys({ ...localItem(2, 'Edited offline', { _syncStatus: 'pending', parent_id: 1 }), _top: 0 }),
    ];
    await old.table('items').bulkPut(items);
    const entry = {
      id: 'e1',
      seq: 1,
      kind: 'update',
      method: 'PATCH',
      url: '/api/items/2',
      data: { title: 'Edited offline' },
      timestamp: 1,
      retries: 0,
      idempotencyKey: 'k1',
      baseVersion: 1,
      itemId: 2,
      tag: null,
    };
    await old.table('syncQueue').add(entry);
    await old.table('meta').put({ key: 'cursor', value: 'c42' });
    old.close();

    const db = new OutpostDb('Outpost-v14', { indexedDB, IDBKeyRange });
    await db.open();
    expect(db.verno).toBe(DB_VERSION);
    expect((await db.items.toArray()).map((r) => [r.id, r.title, r._syncStatus])).toEqual([
      [1, 'Synced', 'synced'],
      [2, 'Edited offline', 'pending'],
    ]);
    expect(await db.syncQueue.toArray()).toEqual([entry]);
    // Version 16 (time entries) restarts the pull: the old cursor passed entries never stored.
    expect(await db.meta.get('cursor')).toBeUndefined();
    expect(await db.timeEntries.count()).toBe(0);
    const stored = [...db.backendDB().transaction('items').objectStore('items').indexNames];
    for (const gone of UNREAD_INDEXES_V15) expect(stored).not.toContain(gone);
    expect(stored).toContain('parent_id');
    expect(stored.length).toBe(db.items.schema.indexes.length);
    db.close();
  });

  it('version 17 adds the calendar indexes and keys every open spanning or repeating row stored before it', async () => {
    const indexedDB = new IDBFactory();
    const old = new Dexie('Outpost-v15', { indexedDB, IDBKeyRange });
    old.version(15).stores(STORES_V15);
    const rows = [
      localItem(1, 'Spans', { due_date: '2026-12-05', start_date: '2026-11-20' }),
      localItem(2, 'Repeats', { due_date: '2026-10-01', recurrence: 'FREQ=WEEKLY' }),
      localItem(3, 'One day', { due_date: '2026-11-10' }),
    ].map((row) => {
      const keyed: Record<string, unknown> = withKeys({ ...row, _top: 1 as const });
      delete keyed._sd;
      return keyed;
    });
    await old.table('items').bulkPut(rows);
    old.close();

    const db = new OutpostDb('Outpost-v15', { indexedDB, IDBKeyRange });
    await db.open();
    expect(db.verno).toBe(DB_VERSION);
    expect((await db.items.toArray()).map((r) => [r.id, r._sd])).toEqual([
      [1, '1 2026-11-20'],
      [2, 'z 2026-10-01'],
      [3, undefined],
    ]);
    expect(
      await db.items
        .where(CALENDAR_INDEX.mine)
        .between(['a', 1, Dexie.minKey], ['a', 1, Dexie.maxKey])
        .primaryKeys(),
    ).toEqual([1, 2]);
    db.close();
  });

  it('versions 18 and 19 give version 17’s rows the status lists’ flag and rekey their spans reach first', async () => {
    const indexedDB = new IDBFactory();
    const old = new Dexie('Outpost-v17', { indexedDB, IDBKeyRange });
    old.version(17).stores(STORES_V17);
    const rows = [
      localItem(1, 'Two weeks', { due_date: '2026-12-05', start_date: '2026-11-20' }),
      localItem(2, 'Two years', { due_date: '2028-11-20', start_date: '2026-11-20' }),
    ].map((row) => ({ ...withKeys({ ...row, _top: 1 as const }), _sd: '2026-11-20' }));
    await old.table('items').bulkPut(rows);
    old.close();

    const db = new OutpostDb('Outpost-v17', { indexedDB, IDBKeyRange });
    await db.open();
    expect(db.verno).toBe(DB_VERSION);
    expect((await db.items.toArray()).map((r) => [r.id, r._sd, r._stop])).toEqual([
      [1, '1 2026-11-20', 1],
      [2, '4 2026-11-20', 1],
    ]);
    db.close();
  });

  it('version 20 adds the files’ rows and the file store, keeps every item and queued change, and pulls from the start', async () => {
    const indexedDB = new IDBFactory();
    const old = new Dexie('Outpost-v19', { indexedDB, IDBKeyRange });
    old.version(19).stores(STORES_V18);
    await old.table('items').bulkPut([withKeys({ ...localItem(1, 'Kept'), _top: 1 as const })]);
    await old.table('syncQueue').add({
      id: 'e1',
      seq: 1,
      kind: 'update',
      method: 'PATCH',
      url: '/api/items/1',
      data: { title: 'Kept' },
      timestamp: 1,
      retries: 0,
      idempotencyKey: 'k1',
      baseVersion: 1,
      itemId: 1,
      tag: null,
    });
    await old.table('meta').put({ key: 'cursor', value: '42' });
    old.close();

    const db = new OutpostDb('Outpost-v19', { indexedDB, IDBKeyRange });
    await db.open();
    expect(db.verno).toBe(DB_VERSION);
    expect((await db.items.toArray()).map((r) => r.title)).toEqual(['Kept']);
    expect((await db.syncQueue.toArray()).map((e) => e.id)).toEqual(['e1']);
    // A cursor from before it passed files the device never stored.
    expect(await db.meta.get('cursor')).toBeUndefined();
    expect(await db.attachments.count()).toBe(0);
    expect(db.attachments.schema.indexes.map((i) => i.name).sort()).toEqual([
      '_syncStatus',
      'item_id',
      'uuid',
    ]);
    expect(db.fileBlobs.schema.primKey.name).toBe('uuid');
    db.close();
  });
});
