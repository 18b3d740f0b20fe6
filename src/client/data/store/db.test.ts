import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { createDevice, settled, signIn } from '../../../../testkit/client/harness';
import { localItem } from '../../../../testkit/client/items';
import { freshPhone } from '../../../../testkit/client/server';
import { serverPerFile } from '../../../../testkit/client/serverPerFile';
import { ITEM_QUEUE_KINDS, type QueueKind, queueRequest } from '../../../shared/protocol';
import { commentIdOf } from '../comments/localComments';
import { type NewEntry, queueRows } from '../sync/queue';
import { childrenOfAny, childrenWhere } from './childRows';
import {
  CALENDAR_INDEX,
  DB_VERSION,
  kindOfRequest,
  OutpostDb,
  OWNED_STORES,
  STORES_V14,
  STORES_V15,
  STORES_V17,
  STORES_V18,
  STORES_V20,
  STORES_V23,
  STORES_V24,
  UNREAD_INDEXES_V15,
} from './db';
import { guestItems, hasGuestItems } from './guestRows';
import { withKeys } from './listKeys';
import { descendantIds } from './localItems';
import { QUEUE_CHILD_FIELDS_V20 } from './queueChildFieldsV20';
import type { QueueEntry } from './types';

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
    expect(stored).toContain('[parent_id+_scope+created_at]');
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

  it('W10: every store of one person’s rows is by owner, as a sign-in as another account prunes it', () => {
    const db = new OutpostDb('Outpost-owned', { indexedDB: new IDBFactory(), IDBKeyRange });
    for (const store of OWNED_STORES)
      expect(
        db.table(store).schema.indexes.map((i) => i.name),
        store,
      ).toContain('owner');
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

  it('version 24 drops the items index on the sync status, keeps every row, and still finds the guest’s rows', async () => {
    const indexedDB = new IDBFactory();
    const old = new Dexie('Outpost-v23', { indexedDB, IDBKeyRange });
    old.version(23).stores(STORES_V23);
    const keyed = (item: ReturnType<typeof localItem>) => withKeys({ ...item, _top: 1 as const });
    await old
      .table('items')
      .bulkPut([
        keyed(localItem(1, 'Guest, live', { _syncStatus: 'local' })),
        keyed(localItem(2, 'Guest, deleted', { _syncStatus: 'local', _deleted: 1 })),
        keyed(localItem(3, 'Account, synced')),
        keyed(localItem(4, 'Account, deleted', { _syncStatus: 'pending', _deleted: 1 })),
      ]);
    old.close();

    const db = new OutpostDb('Outpost-v23', { indexedDB, IDBKeyRange });
    await db.open();
    expect(db.verno).toBe(DB_VERSION);
    expect(db.items.schema.indexes.map((i) => i.name)).not.toContain('_syncStatus');
    expect(await db.items.count()).toBe(4);
    expect((await guestItems(db)).map((i) => i.id).sort()).toEqual([1, 2]);
    expect(await hasGuestItems(db)).toBe(true);
    await db.items.delete(1);
    expect(await hasGuestItems(db)).toBe(true);
    await db.items.delete(2);
    expect(await hasGuestItems(db)).toBe(false);
    db.close();
  });

  it('version 25 drops the single parent_id index, keeps every row, and still finds every child of a parent', async () => {
    const indexedDB = new IDBFactory();
    const old = new Dexie('Outpost-v24', { indexedDB, IDBKeyRange });
    old.version(24).stores(STORES_V24);
    const keyed = (item: ReturnType<typeof localItem>, top: 1 | false) => withKeys({ ...item, _top: top });
    await old
      .table('items')
      .bulkPut([
        keyed(localItem(1, 'Campaign', { type: 'campaign' }), 1),
        keyed(localItem(2, 'Task', { type: 'task', parent_id: 1 }), false),
        keyed(localItem(3, 'Task, deleted', { type: 'task', parent_id: 1, _deleted: 1 }), false),
        keyed(localItem(4, 'Todo', { parent_id: 2, created_at: '2020-01-01T00:00:00.000Z' }), false),
        keyed(localItem(5, 'Todo, pending', { parent_id: 2, _syncStatus: 'pending' }), false),
        keyed(localItem(6, 'Elsewhere', { parent_id: 7 }), false),
        keyed(localItem(-8, 'Guest child of a temporary id', { parent_id: -9, _syncStatus: 'local' }), false),
      ]);
    old.close();

    const db = new OutpostDb('Outpost-v24', { indexedDB, IDBKeyRange });
    await db.open();
    expect(db.verno).toBe(DB_VERSION);
    expect(db.items.schema.indexes.map((i) => i.name)).not.toContain('parent_id');
    expect(await db.items.count()).toBe(7);
    const ids = async (rows: Promise<{ id: number }[]>) =>
      (await rows).map((r) => r.id).sort((a, b) => a - b);
    expect(await ids(childrenWhere(db.items, 1).toArray())).toEqual([2, 3]);
    expect(await ids(childrenWhere(db.items, 2).toArray())).toEqual([4, 5]);
    expect(await ids(childrenWhere(db.items, -9).toArray())).toEqual([-8]);
    expect(await childrenWhere(db.items, 4).count()).toBe(0);
    expect(await ids(childrenOfAny(db.items, [2, 7, 2, 99]).toArray())).toEqual([4, 5, 6]);
    expect(await childrenOfAny(db.items, []).count()).toBe(0);
    expect((await descendantIds(db, 1)).sort((a, b) => a - b)).toEqual([2, 3, 4, 5]);
    db.close();
  });
});

/** A queue row as version 20 stored it: its child (if any) named by its kind's own field. */
function v20Row(row: QueueEntry): Record<string, unknown> {
  const { child, ...rest } = row;
  const entry = Object.entries(QUEUE_CHILD_FIELDS_V20).find(([, c]) => c.kind === child?.kind);
  return child && entry ? { ...rest, [entry[0]]: child[entry[1].key] } : rest;
}

describe('queue rows stored before version 21', () => {
  const files = serverPerFile();

  it('Q14: version 21 names every kind’s child by one field, and each row sends the request it sent before', async () => {
    const indexedDB = new IDBFactory();
    const old = new Dexie('Outpost-v20', { indexedDB, IDBKeyRange });
    old.version(20).stores(STORES_V20);
    const row = (seq: number, kind: QueueKind, url: string, named: Record<string, unknown>) => ({
      id: `e${seq}`,
      seq,
      kind,
      method: queueRequest(kind, 5).method,
      url,
      data: kind === 'update' || kind === 'comment_edit' ? { body: 'b' } : null,
      timestamp: seq,
      retries: 0,
      idempotencyKey: `k${seq}`,
      baseVersion: kind === 'update' ? 3 : null,
      itemId: 5,
      tag: null,
      ...named,
    });
    const before = [
      row(1, 'update', '/api/items/5', {}),
      row(2, 'comment_create', '/api/items/5/comments', { commentId: -3 }),
      row(3, 'comment_edit', '/api/comments/40', { commentId: 40 }),
      // Queued before rows named their comment: its URL names it.
      row(4, 'comment_delete', '/api/comments/41', {}),
      row(5, 'time_edit', '/api/time_entries/te-1', { timeEntry: 'te-1' }),
      row(6, 'time_delete', '/api/time_entries/77', { timeEntry: 'te-2' }),
      row(7, 'attachment_delete', '/api/attachments/12', { attachment: 'f-1' }),
    ];
    await old.table('syncQueue').bulkAdd(before);
    old.close();

    const db = new OutpostDb('Outpost-v20', { indexedDB, IDBKeyRange });
    const after = await db.syncQueue.orderBy('seq').toArray();
    expect(db.verno).toBe(DB_VERSION);
    const without = ({ commentId: _c, timeEntry: _t, attachment: _a, ...rest }: Record<string, unknown>) =>
      rest;
    expect(after).toEqual([
      without(before[0]!),
      { ...without(before[1]!), child: { kind: 'comments', id: -3 } },
      { ...without(before[2]!), child: { kind: 'comments', id: 40 } },
      without(before[3]!),
      { ...without(before[4]!), child: { kind: 'time_entries', uuid: 'te-1' } },
      { ...without(before[5]!), child: { kind: 'time_entries', uuid: 'te-2' } },
      { ...without(before[6]!), child: { kind: 'attachments', uuid: 'f-1' } },
    ]);
    // Each row is what the same change queued now makes: the same request, its child named the same
    // (but the comment's row from before rows named their comment, read by the id its URL names).
    const children: NewEntry['child'][] = [
      undefined,
      { id: -3 },
      { id: 40 },
      { id: 41 },
      { uuid: 'te-1' },
      { uuid: 'te-2', ref: '77' },
      { uuid: 'f-1', ref: '12' },
    ];
    for (const [i, upgraded] of after.entries()) {
      const child = children[i];
      const { kind, data, baseVersion } = upgraded;
      const [fresh] = queueRows([{ kind, itemId: 5, data, baseVersion, ...(child ? { child } : {}) }], 0);
      expect([fresh!.method, fresh!.url], kind).toEqual([upgraded.method, upgraded.url]);
      if (i !== 3) expect(fresh!.child, kind).toEqual(upgraded.child);
    }
    expect(after.map(commentIdOf)).toEqual([0, -3, 40, 41, 0, 0, 0]);
    db.close();
  });

  it('Q14: a device upgraded with a comment’s edit and a time entry’s edit and delete queued sends them as it would have before', async () => {
    const d = createDevice(files.server.url);
    files.devices.push(d);
    const phone = freshPhone();
    await signIn(d, phone, 'Upgrader');
    const item = await d.client.items.create({ title: 'Trip', type: 'task' });
    const comment = await d.client.send('comments.add', {
      itemId: item.id,
      body: 'Pack the map',
      mentions: [],
    });
    const hour = (h: number) => `2026-11-20T${String(h).padStart(2, '0')}:00:00.000Z`;
    const kept = await d.client.send('time.addManual', {
      itemId: item.id,
      startedAt: hour(9),
      endedAt: hour(10),
    });
    const gone = await d.client.send('time.addManual', {
      itemId: item.id,
      startedAt: hour(11),
      endedAt: hour(12),
    });
    await d.client.engine.sync({ manual: true });
    await settled(d);
    const serverComment = await d.client.db.comments.where('uuid').equals(comment.uuid).first();
    expect(serverComment?.id).toBeGreaterThan(0);

    d.goOffline();
    await d.client.send('comments.update', { id: serverComment!.id, body: 'Pack the big map', mentions: [] });
    await d.client.send('time.update', { uuid: kept.uuid, patch: { note: 'Packed' } });
    await d.client.send('time.remove', gone.uuid);
    await d.client.engine.settled();
    const queued = await d.client.db.syncQueue.orderBy('seq').toArray();
    expect(queued.map((e) => [e.kind, e.child])).toEqual([
      ['comment_edit', { kind: 'comments', id: serverComment!.id }],
      ['time_edit', { kind: 'time_entries', uuid: kept.uuid }],
      ['time_delete', { kind: 'time_entries', uuid: gone.uuid }],
    ]);

    // The same rows as version 20 stored them, every other store as it was.
    const tables = Object.fromEntries(
      await Promise.all(d.client.db.tables.map(async (t) => [t.name, await t.toArray()] as const)),
    );
    d.client.close();
    const name = `Outpost-${d.name}`;
    await new Dexie(name, { indexedDB: d.idb, IDBKeyRange }).delete();
    const old = new Dexie(name, { indexedDB: d.idb, IDBKeyRange });
    old.version(20).stores(STORES_V20);
    await old.transaction('rw', old.tables, async () => {
      for (const t of old.tables)
        await t.bulkAdd(t.name === 'syncQueue' ? queued.map(v20Row) : (tables[t.name] ?? []));
    });
    expect(await old.table('syncQueue').orderBy('seq').toArray()).toEqual(queued.map(v20Row));
    old.close();

    const again = createDevice(files.server.url, d.name, { idb: d.idb, jar: d.jar });
    files.devices.push(again);
    expect(await again.client.db.syncQueue.orderBy('seq').toArray()).toEqual(queued);
    await again.client.engine.sync({ manual: true });
    await settled(again);
    const sent = again.control.requests
      .filter((r) => r.method !== 'GET')
      .map((r) => `${r.method} ${new URL(r.url).pathname}`);
    expect(sent).toEqual(queued.map((e) => `${e.method} ${e.url}`));
    expect(await again.client.db.syncQueue.count()).toBe(0);

    // The server holds the changes: another device of the account reads them.
    const other = createDevice(files.server.url);
    files.devices.push(other);
    await signIn(other, phone, 'Upgrader');
    expect((await other.client.db.comments.get(serverComment!.id))?.body).toBe('Pack the big map');
    expect((await other.client.db.timeEntries.toArray()).map((e) => [e.uuid, e.note])).toEqual([
      [kept.uuid, 'Packed'],
    ]);
  });
});
