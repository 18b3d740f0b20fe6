import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDevice, createSynced, type Device, settled, signIn } from '../../../../testkit/client/harness';
import { freshPhone } from '../../../../testkit/client/server';
import { serverPerFile } from '../../../../testkit/client/serverPerFile';
import { type Comment, MENTION_NOT_ALLOWED, mentionToken } from '../../../shared/comments';
import type { Paginated } from '../../../shared/item';
import { type QueueKind, queueRequest } from '../../../shared/protocol';
import type { LocalComment, QueueEntry } from '../store/types';
import { commentIdOf } from './localComments';

const files = serverPerFile();
const devices = files.devices;

function device(): Device {
  const d = createDevice(files.server.url);
  devices.push(d);
  return d;
}

async function signedInDevice(phone = freshPhone(), name = 'Tester'): Promise<Device> {
  const d = device();
  await signIn(d, phone, name);
  return d;
}

/** A second device of the same account: its own browser, signed in with the same phone. */
async function sameAccount(phone: string): Promise<Device> {
  return signedInDevice(phone);
}

const send = (d: Device) => d.client.send;

/** The item's comments on the device, oldest first, as the timeline reads them. */
async function onDevice(d: Device, itemUuid: string): Promise<LocalComment[]> {
  const rows = await d.client.db.comments
    .where('[item_uuid+created_at]')
    .between([itemUuid, ''], [itemUuid, '\uffff'])
    .toArray();
  return rows.filter((r) => r._deleted === 0);
}

/** The item's comments as the server stores them (every page). */
async function onServer(d: Device, itemId: number): Promise<Comment[]> {
  const out: Comment[] = [];
  for (let page = 1; ; page++) {
    const { data } = await d.client.api.get<Paginated<Comment>>(`/items/${itemId}/comments?page=${page}`);
    out.push(...data.data);
    if (data.current_page >= data.last_page) return out;
  }
}

describe('the comment a queue row is about', () => {
  it('Q14: a row names its comment; one queued before rows did is read by the id its URL names', () => {
    const row = (kind: QueueKind, id?: number) =>
      ({
        kind,
        ...queueRequest(kind, 7, 40),
        ...(id === undefined ? {} : { child: { kind: 'comments', id } }),
      }) as QueueEntry;
    expect(commentIdOf(row('comment_edit', 40))).toBe(40);
    expect(commentIdOf(row('comment_create', -3))).toBe(-3);
    expect(commentIdOf(row('comment_delete'))).toBe(40);
    expect(commentIdOf(row('comment_create'))).toBe(0);
    expect(commentIdOf(row('update'))).toBe(0);
  });
});

describe('comments as device data', () => {
  it('K8: a comment written offline shows at once as pending, survives a reload, and once online is stored once with the server’s id', async () => {
    const phone = freshPhone();
    const a = await signedInDevice(phone);
    const todo = await createSynced(a, { title: 'Talk here', type: 'todo' });
    a.goOffline();
    const written = await send(a)('comments.add', { itemId: todo.id, body: 'from the train', mentions: [] });
    expect(written.id).toBeLessThan(0);
    expect(written._syncStatus).toBe('pending');
    expect((await onDevice(a, todo.uuid!)).map((c) => c.body)).toEqual(['from the train']);
    expect(await a.client.db.syncQueue.count()).toBe(1);

    const again = a.reload();
    devices.push(again);
    again.goOffline();
    expect((await onDevice(again, todo.uuid!)).map((c) => [c.body, c._syncStatus])).toEqual([
      ['from the train', 'pending'],
    ]);
    again.goOnline();
    await again.client.engine.sync({ manual: true });
    await settled(again);
    const [synced] = await onDevice(again, todo.uuid!);
    expect(synced).toMatchObject({ body: 'from the train', _syncStatus: 'synced', uuid: written.uuid });
    expect(synced!.id).toBeGreaterThan(0);
    expect(await again.client.db.syncQueue.count()).toBe(0);
    expect((await onServer(again, todo.id)).map((c) => c.uuid)).toEqual([written.uuid]);

    // K13 on the device: the account's other device pulls it into its own timeline.
    const b = await sameAccount(phone);
    await b.client.engine.sync({ manual: true });
    expect((await onDevice(b, todo.uuid!)).map((c) => [c.id, c.body])).toEqual([
      [synced!.id, 'from the train'],
    ]);
  });

  it('K8: edits and deletes go through the queue; an edit of a comment not yet sent changes its create', async () => {
    const phone = freshPhone();
    const a = await signedInDevice(phone);
    const b = await sameAccount(phone);
    const todo = await createSynced(a, { title: 'Edits', type: 'todo' });
    a.goOffline();
    const draft = await send(a)('comments.add', { itemId: todo.id, body: 'frist', mentions: [] });
    await send(a)('comments.update', { id: draft.id, body: 'first', mentions: [] });
    expect(await a.client.db.syncQueue.count()).toBe(1);
    a.goOnline();
    await a.client.engine.sync({ manual: true });
    await settled(a);
    const [stored] = await onDevice(a, todo.uuid!);
    expect(stored).toMatchObject({ body: 'first', edited: false, _syncStatus: 'synced' });

    a.goOffline();
    await send(a)('comments.update', { id: stored!.id, body: 'first, really', mentions: [] });
    expect((await onDevice(a, todo.uuid!))[0]).toMatchObject({
      body: 'first, really',
      edited: true,
      _syncStatus: 'pending',
    });
    a.goOnline();
    await a.client.engine.sync({ manual: true });
    await settled(a);
    expect((await onServer(a, todo.id))[0]).toMatchObject({ body: 'first, really', edited: true });

    await b.client.engine.sync({ manual: true });
    expect((await onDevice(b, todo.uuid!)).map((c) => c.body)).toEqual(['first, really']);
    await send(a)('comments.remove', stored!.id);
    expect(await onDevice(a, todo.uuid!)).toEqual([]);
    await settled(a);
    expect(await onServer(a, todo.id)).toEqual([]);
    await b.client.engine.sync({ manual: true });
    expect(await onDevice(b, todo.uuid!)).toEqual([]);
  });

  it('K17: an edit folded into a create that was already on its way still reaches the server', async () => {
    const phone = freshPhone();
    const a = await signedInDevice(phone);
    const b = await sameAccount(phone);
    const todo = await createSynced(a, { title: 'Race', type: 'todo' });
    a.goOffline();
    const draft = await send(a)('comments.add', { itemId: todo.id, body: 'draft', mentions: [] });
    // The create as it went out before the edit: the server stores the text it was sent (K4).
    await b.client.api.post(`/items/${todo.id}/comments`, { body: 'draft', uuid: draft.uuid });
    await send(a)('comments.update', { id: draft.id, body: 'final', mentions: [] });
    a.goOnline();
    await a.client.engine.sync({ manual: true });
    await settled(a);
    await a.client.engine.sync({ manual: true });
    await settled(a);
    expect((await onServer(a, todo.id)).map((c) => [c.uuid, c.body])).toEqual([[draft.uuid, 'final']]);
    expect((await onDevice(a, todo.uuid!)).map((c) => [c.body, c._syncStatus])).toEqual([
      ['final', 'synced'],
    ]);
    expect(await a.client.db.syncQueue.count()).toBe(0);
  });

  it('K14: an item gone from the device takes its comments with it', async () => {
    const phone = freshPhone();
    const a = await signedInDevice(phone);
    const b = await sameAccount(phone);
    const todo = await createSynced(a, { title: 'Soon gone', type: 'todo' });
    await send(a)('comments.add', { itemId: todo.id, body: 'a note', mentions: [] });
    await settled(a);
    await b.client.engine.sync({ manual: true });
    expect(await onDevice(b, todo.uuid!)).toHaveLength(1);
    // The comment moved the item's version (K11): the device pulls it before the delete.
    await a.client.engine.sync({ manual: true });
    await a.client.items.remove(todo.id);
    await settled(a);
    expect(await a.client.db.comments.count()).toBe(0);
    await b.client.engine.sync({ manual: true });
    expect(await b.client.db.comments.where('item_id').equals(todo.id).count()).toBe(0);

    // Undone, the item comes back with its comments (the server sends them again with it).
    await a.client.api.post(`/items/${todo.id}/restore`, {});
    await b.client.engine.sync({ manual: true });
    expect((await onDevice(b, todo.uuid!)).map((c) => c.body)).toEqual(['a note']);
  });

  /** Deletes the item while offline, syncs: no conflict opens, nothing stays queued, the server has it gone. */
  async function removeOfflineThenSync(a: Awaited<ReturnType<typeof signedInDevice>>, itemId: number) {
    await a.client.items.remove(itemId);
    a.goOnline();
    await a.client.engine.sync({ manual: true });
    await settled(a);
    expect(await a.client.engine.listConflicts()).toEqual([]);
    expect(await a.client.db.syncQueue.count()).toBe(0);
    expect((await a.client.api.get(`/items/${itemId}`).catch((e: { status: number }) => e)).status).toBe(404);
  }

  it('K8: a comment’s push moves its item’s version and count as the server does, so deleting the item next is no conflict', async () => {
    const a = await signedInDevice();
    const todo = await createSynced(a, { title: 'Said and gone', type: 'todo' });
    a.goOffline();
    await send(a)('comments.add', { itemId: todo.id, body: 'last words', mentions: [] });
    await removeOfflineThenSync(a, todo.id);
  });

  it('K8: a comment’s delete moves its item’s version and count as the server does, so deleting the item next is no conflict', async () => {
    const a = await signedInDevice();
    const todo = await createSynced(a, { title: 'Said, unsaid, gone', type: 'todo' });
    const said = await send(a)('comments.add', { itemId: todo.id, body: 'second thoughts', mentions: [] });
    await settled(a);
    await a.client.engine.sync({ manual: true });
    const stored = (await onDevice(a, todo.uuid!))[0]!;
    expect(stored.uuid).toBe(said.uuid);
    a.goOffline();
    await send(a)('comments.remove', stored.id);
    await removeOfflineThenSync(a, todo.id);
  });

  it('K20: a comment the server refuses keeps its text and the reason, is not counted, is never sent again, and Edit sends it anew', async () => {
    const a = await signedInDevice();
    const stranger = await signedInDevice();
    const strangerId = stranger.client.auth.getState().user.id;
    const todo = await createSynced(a, { title: 'Private', type: 'todo' });
    // A mention of someone who does not see the item: the server's 422 (K6).
    const written = await send(a)('comments.add', {
      itemId: todo.id,
      body: `Look, ${mentionToken(strangerId)}`,
      mentions: [{ id: strangerId, name: 'Stranger' }],
    });
    await settled(a);
    const [kept] = await onDevice(a, todo.uuid!);
    expect(kept).toMatchObject({
      uuid: written.uuid,
      body: `Look, ${mentionToken(strangerId)}`,
      _refused: { what: 'create', message: MENTION_NOT_ALLOWED },
    });
    expect(kept!.id).toBeLessThan(0);
    expect(await a.client.db.syncQueue.count()).toBe(0);
    expect(await onServer(a, todo.id)).toEqual([]);
    expect((await a.client.db.items.get(todo.id))?.comments_count ?? 0).toBe(0);

    // Nothing refused goes again by itself: syncs send no comment.
    const before = a.control.requests.length;
    await a.client.engine.sync({ manual: true });
    await settled(a);
    expect(a.control.requests.slice(before).filter((r) => r.url.includes('/comments'))).toEqual([]);
    expect((await onDevice(a, todo.uuid!))[0]?._refused?.message).toBe(MENTION_NOT_ALLOWED);

    // Edit, fixed: a new create with a new uuid; the refused one gives way to it.
    await send(a)('comments.update', { id: kept!.id, body: 'Look, everyone', mentions: [] });
    await settled(a);
    const [sent] = await onDevice(a, todo.uuid!);
    expect(sent).toMatchObject({ body: 'Look, everyone', _syncStatus: 'synced' });
    expect(sent!._refused ?? null).toBeNull();
    expect(sent!.id).toBeGreaterThan(0);
    expect(sent!.uuid).not.toBe(written.uuid);
    expect((await onServer(a, todo.id)).map((c) => [c.uuid, c.body])).toEqual([
      [sent!.uuid, 'Look, everyone'],
    ]);
    expect(await onDevice(a, todo.uuid!)).toHaveLength(1);
  });

  it('K20: Discard takes a refused comment off the device; a refused edit keeps the device’s text until the server’s is taken back', async () => {
    const a = await signedInDevice();
    const stranger = await signedInDevice();
    const strangerId = stranger.client.auth.getState().user.id;
    const todo = await createSynced(a, { title: 'Notes', type: 'todo' });
    const refused = await send(a)('comments.add', {
      itemId: todo.id,
      body: `cc ${mentionToken(strangerId)}`,
      mentions: [{ id: strangerId, name: 'Stranger' }],
    });
    await settled(a);
    expect((await a.client.db.comments.get(refused.id))?._refused?.what).toBe('create');
    expect(await send(a)('comments.discardRefused', refused.id)).toBe(true);
    expect(await onDevice(a, todo.uuid!)).toEqual([]);
    expect(await a.client.db.syncQueue.count()).toBe(0);

    await send(a)('comments.add', { itemId: todo.id, body: 'first words', mentions: [] });
    await settled(a);
    const [saved] = await onDevice(a, todo.uuid!);
    expect(saved!.id).toBeGreaterThan(0);
    await send(a)('comments.update', {
      id: saved!.id,
      body: `second words ${mentionToken(strangerId)}`,
      mentions: [{ id: strangerId, name: 'Stranger' }],
    });
    await settled(a);
    const [edited] = await onDevice(a, todo.uuid!);
    expect(edited).toMatchObject({
      id: saved!.id,
      body: `second words ${mentionToken(strangerId)}`,
      _refused: { what: 'edit', message: MENTION_NOT_ALLOWED },
    });
    expect((await onServer(a, todo.id)).map((c) => c.body)).toEqual(['first words']);
    // A pull keeps the device's text (and learns the server's beneath it).
    await a.client.engine.sync({ manual: true });
    expect((await onDevice(a, todo.uuid!))[0]?.body).toBe(`second words ${mentionToken(strangerId)}`);

    expect(await send(a)('comments.discardRefused', saved!.id)).toBe(true);
    const [back] = await onDevice(a, todo.uuid!);
    expect(back).toMatchObject({ id: saved!.id, body: 'first words', _syncStatus: 'synced' });
    expect(back!._refused ?? null).toBeNull();
    expect(await a.client.db.syncQueue.count()).toBe(0);

    // Refused again, then fixed: the edit goes as a plain edit and the mark goes.
    await send(a)('comments.update', {
      id: saved!.id,
      body: `again ${mentionToken(strangerId)}`,
      mentions: [],
    });
    await settled(a);
    expect((await onDevice(a, todo.uuid!))[0]?._refused?.what).toBe('edit');
    await send(a)('comments.update', { id: saved!.id, body: 'third words', mentions: [] });
    await settled(a);
    const [fixed] = await onDevice(a, todo.uuid!);
    expect(fixed).toMatchObject({ id: saved!.id, body: 'third words', _syncStatus: 'synced', edited: true });
    expect(fixed!._refused ?? null).toBeNull();
    expect((await onServer(a, todo.id)).map((c) => c.body)).toEqual(['third words']);
  });

  it('K20: a comment on an item deleted meanwhile is kept with the reason while the item is on the device, and goes with it', async () => {
    const phone = freshPhone();
    const a = await signedInDevice(phone);
    const b = await sameAccount(phone);
    const todo = await createSynced(a, { title: 'Deleted elsewhere', type: 'todo' });
    await b.client.engine.sync({ manual: true });
    await b.client.items.remove(todo.id);
    await settled(b);
    // The device has not pulled the delete yet: its comment goes up at once and meets the 404.
    await send(a)('comments.add', { itemId: todo.id, body: 'too late', mentions: [] });
    await settled(a);
    const [kept] = await onDevice(a, todo.uuid!);
    expect(kept).toMatchObject({ body: 'too late', _refused: { what: 'create' } });
    expect(kept!._refused!.message).toMatch(/deleted or is no longer shared/);
    await a.client.engine.sync({ manual: true });
    await settled(a);
    expect(await a.client.db.items.get(todo.id)).toBeUndefined();
    expect(await a.client.db.comments.count()).toBe(0);
  });

  it('K16: a guest’s comments stay on the device and go up with their items when the guest signs in', async () => {
    const d = device();
    d.client.auth.getState().initGuest();
    const task = await d.client.items.create({ title: 'Guest task', type: 'task' });
    await send(d)('comments.add', {
      itemId: task.id,
      body: 'guest note',
      mentions: [{ id: 3, name: 'Nobody' }],
    });
    const [local] = await onDevice(d, task.uuid!);
    expect(local).toMatchObject({ body: 'guest note', mentions: [], _syncStatus: 'local' });
    expect(await d.client.db.syncQueue.count()).toBe(0);
    expect(d.control.requests).toEqual([]);

    await signIn(d, freshPhone(), 'Upgraded');
    await d.client.engine.sync({ manual: true });
    await settled(d);
    const moved = await d.client.db.items.where('uuid').equals(task.uuid!).first();
    expect(moved!.id).toBeGreaterThan(0);
    const [up] = await onDevice(d, task.uuid!);
    expect(up).toMatchObject({
      body: 'guest note',
      uuid: local!.uuid,
      _syncStatus: 'synced',
      item_id: moved!.id,
    });
    expect(up!.user.name).toBe('Upgraded');
    expect((await onServer(d, moved!.id)).map((c) => c.uuid)).toEqual([local!.uuid]);
  });

  it('K15: comments queued offline on two devices and replayed twice are stored once each, and both devices end with all of them', async () => {
    const phone = freshPhone();
    const a = await signedInDevice(phone);
    const b = await sameAccount(phone);
    const todo = await createSynced(a, { title: 'Replayed', type: 'todo' });
    await b.client.engine.sync({ manual: true });
    const fault = fc.constantFrom('none', 'lost answer', 'sent twice', 'both');
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.boolean(), fault), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        async (writes, bFirst) => {
          round++;
          a.goOffline();
          b.goOffline();
          const written: { d: Device; uuid: string; fault: string }[] = [];
          for (const [onA, how] of writes) {
            const d = onA ? a : b;
            const c = await send(d)('comments.add', {
              itemId: todo.id,
              body: `r${round} ${written.length}`,
              mentions: [],
            });
            written.push({ d, uuid: c.uuid, fault: how });
          }
          // Each device replays its queue: a push whose answer is lost goes again (the same uuid and
          // Idempotency-Key), and one the network delivers twice reaches the server twice.
          for (const d of bFirst ? [b, a] : [a, b]) {
            d.goOnline();
            for (const w of written.filter((x) => x.d === d)) {
              const isCreate = (m: string, u: string) => m === 'POST' && u.endsWith('/comments');
              if (w.fault === 'lost answer' || w.fault === 'both') d.control.dropNextResponse = isCreate;
              if (w.fault === 'sent twice' || w.fault === 'both') d.control.duplicateNext = isCreate;
              await d.client.engine.sync({ manual: true });
              await settled(d);
            }
            await d.client.engine.sync({ manual: true });
            await settled(d);
          }
          await a.client.engine.sync({ manual: true });
          await b.client.engine.sync({ manual: true });
          const stored = await onServer(a, todo.id);
          for (const w of written) expect(stored.filter((c) => c.uuid === w.uuid)).toHaveLength(1);
          const uuids = new Set(stored.map((c) => c.uuid));
          for (const d of [a, b]) {
            expect(await d.client.db.syncQueue.count()).toBe(0);
            const here = await onDevice(d, todo.uuid!);
            expect(here.every((c) => c.id > 0 && c._syncStatus === 'synced')).toBe(true);
            expect(new Set(here.map((c) => c.uuid))).toEqual(uuids);
            expect(here).toHaveLength(uuids.size);
          }
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);
});
