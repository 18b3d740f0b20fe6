import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { closeFakeDbs, freshFakeDb } from '../../../../testkit/client/fakeDb';
import { createDevice, signIn } from '../../../../testkit/client/harness';
import { freshPhone } from '../../../../testkit/client/server';
import { serverPerFile } from '../../../../testkit/client/serverPerFile';
import { childOfKind, ITEM_CHILDREN } from '../../../shared/itemChildren';
import { QUEUE_KINDS, type QueueKind, queueRequest } from '../../../shared/protocol';
import type { OutpostDb } from '../store/db';
import type { QueueChild, QueueEntry } from '../store/types';
import {
  amendCreate,
  confirm,
  discard,
  discardFor,
  drop,
  enqueue,
  entriesFor,
  lastSeq,
  type NewEntry,
  queueRows,
  rebase,
  reissue,
  retarget,
  retry,
} from './queue';

afterEach(closeFakeDbs);

/** Queues `entries` as the funnel does: in one read-write transaction, after the queue's last seq. */
async function queued(db: OutpostDb, entries: readonly NewEntry[]): Promise<QueueEntry[]> {
  return db.transaction('rw', db.syncQueue, async () => {
    const rows = queueRows(entries, await lastSeq(db));
    await enqueue(db, rows);
    return rows;
  });
}

const all = (db: OutpostDb) => db.syncQueue.orderBy('seq').toArray();
const update = (itemId: number, data: Record<string, unknown> = { title: 'x' }): NewEntry => ({
  kind: 'update',
  itemId,
  data,
  baseVersion: 1,
});

describe('the queue’s operations (sync/queue.ts)', () => {
  it('Q13: enqueue adds the rows after the last seq, in order, each with its own id and key', async () => {
    const db = freshFakeDb('queue');
    const [first] = await queued(db, [update(5)]);
    const more = await queued(db, [
      { kind: 'create', itemId: -1, data: { title: 'New' }, baseVersion: null },
      { kind: 'comment_edit', itemId: 5, child: { id: 40 }, data: { body: 'hi' }, baseVersion: null },
    ]);
    const rows = await all(db);
    expect(rows.map((r) => r.seq)).toEqual([first!.seq, first!.seq + 1, first!.seq + 2]);
    expect(rows).toEqual([first, ...more]);
    expect(new Set(rows.map((r) => r.idempotencyKey)).size).toBe(3);
    expect(rows[2]).toMatchObject({
      url: '/api/comments/40',
      child: { kind: 'comments', id: 40 },
      itemId: 5,
    });
    // An item's own entry names no child.
    expect('child' in rows[0]!).toBe(false);
  });

  it('Q14: a row names its child by the key its kind declares, and its URL names it by its ref, whatever the kind', () => {
    for (const kind of ITEM_CHILDREN) {
      const [create, remove] = queueRows(
        [kind.createKind, kind.deleteKind].map((k) => ({
          kind: k,
          itemId: 7,
          data: null,
          baseVersion: null,
          child: { id: 40, uuid: 'u-40' },
        })),
        0,
      );
      const child: QueueChild =
        kind.queueKey === 'id' ? { kind: kind.name, id: 40 } : { kind: kind.name, uuid: 'u-40' };
      expect(create).toMatchObject({ child, ...queueRequest(kind.createKind, 7) });
      // Without a ref, the URL names the child by its key; with one, by the ref (a server id, say).
      expect(remove).toMatchObject({
        child,
        url: queueRequest(kind.deleteKind, 7, 0, String(child.id ?? child.uuid)).url,
      });
      const [named] = queueRows(
        [
          {
            kind: kind.deleteKind,
            itemId: 7,
            data: null,
            baseVersion: null,
            child: { id: 40, uuid: 'u-40', ref: '9' },
          },
        ],
        0,
      );
      expect(named).toMatchObject({ child, url: queueRequest(kind.deleteKind, 7, 9).url });
    }
  });

  it('Q15: confirm takes answered entries off the queue once; a second answer finds nothing', async () => {
    const db = freshFakeDb('queue');
    const [a, b, c] = await queued(db, [update(1), update(2), update(3)]);
    expect(await confirm(db, [a!.id, c!.id])).toEqual([a, c]);
    expect(await confirm(db, [a!.id, c!.id])).toEqual([]);
    expect(await all(db)).toEqual([b]);
  });

  it('Q3, Q7: drop takes refused entries off the queue; retry counts one more retry', async () => {
    const db = freshFakeDb('queue');
    const [a, b] = await queued(db, [update(1), update(2)]);
    await retry(db, b!);
    await drop(db, [a!.id]);
    expect(await all(db)).toEqual([{ ...b, retries: 1 }]);
  });

  it('Q16: discard takes back one entry; discardFor takes everything queued for items, but the kinds it keeps', async () => {
    const db = freshFakeDb('queue');
    const [a, b, restore, comment, other] = await queued(db, [
      update(1),
      { kind: 'delete', itemId: 1, data: null, baseVersion: 2 },
      { kind: 'restore', itemId: 1, data: null, baseVersion: null },
      {
        kind: 'comment_create',
        itemId: 1,
        child: { id: -9 },
        data: { body: 'b', uuid: 'u' },
        baseVersion: null,
      },
      update(2),
    ]);
    await discard(db, b!.id);
    expect((await all(db)).map((r) => r.id)).toEqual([a, restore, comment, other].map((r) => r!.id));
    expect(await discardFor(db, [1], ['restore', 'comment_create'])).toBe(1);
    expect((await all(db)).map((r) => r.id)).toEqual([restore, comment, other].map((r) => r!.id));
    expect(await discardFor(db, [1])).toBe(2);
    expect(await all(db)).toEqual([other]);
  });

  it('Q18: amendCreate keeps the create’s Idempotency-Key; reissue sends other data under a fresh one', async () => {
    const db = freshFakeDb('queue');
    const [create, edit] = await queued(db, [
      {
        kind: 'comment_create',
        itemId: 1,
        child: { id: -4 },
        data: { body: 'a', uuid: 'u' },
        baseVersion: null,
      },
      update(1, { title: 't', assigned_to: 9 }),
    ]);
    await amendCreate(db, create!.id, { body: 'b', uuid: 'u' });
    const again = await reissue(db, edit!, { title: 't' });
    const [storedCreate, storedEdit] = await all(db);
    expect(storedCreate).toEqual({ ...create, data: { body: 'b', uuid: 'u' } });
    expect(storedEdit).toEqual(again);
    expect(again.idempotencyKey).not.toBe(edit!.idempotencyKey);
    expect(again.data).toEqual({ title: 't' });
  });

  it('Q19: rebase points an item’s If-Match entries at the new version, and only those; twice is once', async () => {
    const kind = fc.constantFrom(...QUEUE_KINDS);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ kind, itemId: fc.integer({ min: 1, max: 3 }) }), { maxLength: 12 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 2, max: 50 }),
        async (specs, itemId, version) => {
          const db = freshFakeDb('queue-rebase');
          const rows = await queued(
            db,
            specs.map((s) => ({ ...s, data: null, baseVersion: 1 })),
          );
          await rebase(db, itemId, version);
          const once = await all(db);
          await rebase(db, itemId, version);
          expect(await all(db)).toEqual(once);
          const ifMatch = new Set<QueueKind>(['update', 'assign', 'delete']);
          expect(once).toEqual(
            rows.map((r) =>
              r.itemId === itemId && ifMatch.has(r.kind) ? { ...r, baseVersion: version } : r,
            ),
          );
          db.close();
        },
      ),
      { numRuns: 30 },
    );
  });

  it('Q14: retarget moves every row about a temporary id (item, URL, a create’s parent) to the server’s; twice is once', async () => {
    const kind = fc.constantFrom(...QUEUE_KINDS);
    const id = fc.integer({ min: -4, max: 4 }).filter((n) => n !== 0);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ kind, itemId: id, parent: fc.option(id), childId: fc.nat(50) }), {
          maxLength: 12,
        }),
        fc.subarray([-1, -2, -3, -4]),
        async (specs, temporary) => {
          const db = freshFakeDb('queue-retarget');
          const rows = await queued(
            db,
            specs.map((s) => ({
              kind: s.kind,
              itemId: s.itemId,
              data: s.kind === 'create' && s.parent !== null ? { title: 't', parent_id: s.parent } : null,
              baseVersion: null,
              ...(childOfKind(s.kind) ? { child: { id: s.childId, uuid: `u-${s.childId}` } } : {}),
            })),
          );
          const swaps = new Map(temporary.map((t) => [t, 100 - t]));
          await retarget(db, swaps);
          const once = await all(db);
          await retarget(db, swaps);
          expect(await all(db)).toEqual(once);
          const moved = (n: number) => swaps.get(n) ?? n;
          expect(once).toEqual(
            rows.map((r) => ({
              ...r,
              itemId: moved(r.itemId),
              // The URL the row would have been queued with had the server's id been known.
              url: queueRequest(r.kind, moved(r.itemId), r.child?.id, r.child?.uuid).url,
              data:
                typeof r.data?.parent_id === 'number'
                  ? { ...r.data, parent_id: moved(r.data.parent_id) }
                  : r.data,
            })),
          );
          db.close();
        },
      ),
      { numRuns: 30 },
    );
  });

  it('K8: entriesFor lists an item’s own entries in order, not its comments’', async () => {
    const db = freshFakeDb('queue');
    const [a, , b] = await queued(db, [
      update(1),
      {
        kind: 'comment_create',
        itemId: 1,
        child: { id: -1 },
        data: { body: 'x', uuid: 'u' },
        baseVersion: null,
      },
      { kind: 'delete', itemId: 1, data: null, baseVersion: 1 },
      update(2),
    ]);
    expect(await entriesFor(db, 1)).toEqual([a, b]);
  });
});

describe('a queue replayed (SYNC.md Q15)', () => {
  const files = serverPerFile();
  const devices = files.devices;

  it('Q15: a queue pushed twice, every answer lost the first time, stores each change once', async () => {
    const d = createDevice(files.server.url);
    devices.push(d);
    const phone = freshPhone();
    await signIn(d, phone, 'Replayer');
    d.goOffline();
    const campaign = await d.client.items.create({ title: 'Trip', type: 'campaign' });
    const task = await d.client.items.create({ title: 'Pack', type: 'task', parent_id: campaign.id });
    await d.client.items.update(task.id, { title: 'Pack the bags' });
    await d.client.send('comments.add', { itemId: task.id, body: 'Do not forget the map', mentions: [] });
    const sent = (await all(d.client.db)).length;
    d.goOnline();
    // Each write's first answer is lost after the server stored it; the push stops (Q2) and the next
    // run sends the same entry again, under the same Idempotency-Key.
    const sends = new Map<string, number>();
    for (let run = 0; run < sent * 2 + 2 && (await d.client.db.syncQueue.count()) > 0; run++) {
      d.control.dropNextResponse = (method, url) => {
        if (method === 'GET') return false;
        const n = sends.get(`${method} ${url}`) ?? 0;
        sends.set(`${method} ${url}`, n + 1);
        return n % 2 === 0;
      };
      await d.client.engine.sync().catch(() => undefined);
    }
    d.control.dropNextResponse = null;
    await d.client.engine.sync();
    // Every write went twice: the creates, the edit and the comment.
    expect([...sends.values()].reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2 * sent);
    expect([...sends.values()].every((n) => n % 2 === 0)).toBe(true);

    expect(await d.client.db.syncQueue.count()).toBe(0);
    const other = createDevice(files.server.url);
    devices.push(other);
    await signIn(other, phone, 'Replayer');
    const items = await other.client.db.items.toArray();
    expect(items.map((i) => i.title).sort()).toEqual(['Pack the bags', 'Trip']);
    expect(await other.client.db.comments.count()).toBe(1);
    // The device holds what the server holds: no temporary id left, nothing pending.
    const mine = await d.client.db.items.toArray();
    expect(mine.map((i) => [i.uuid, i.id, i.title]).sort()).toEqual(
      items.map((i) => [i.uuid, i.id, i.title]).sort(),
    );
    expect(mine.every((i) => i.id > 0 && i._syncStatus === 'synced')).toBe(true);
  });
});
