import { afterEach, describe, expect, it } from 'vitest';
import { closeFakeDbs, freshFakeDb } from '../../../../testkit/client/fakeDb';
import { localItem } from '../../../../testkit/client/items';
import type { Attachment } from '../../../shared/attachments';
import type { ApiClient } from '../net/apiClient';
import type { OutpostDb } from '../store/db';
import { createSyncLock } from '../sync/locks';
import { addFiles } from './localAttachments';
import type { FileAnswer, FileRequest } from './transport';
import { createUploader, PROGRESS_EVERY_MS } from './uploader';

afterEach(() => closeFakeDbs());

const viewer = { userId: 9, isGuest: false, user: { id: 9, name: 'Ann' } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The server's answer to an upload of `request`. */
function answerTo(request: FileRequest, id: number): FileAnswer {
  const server: Attachment = {
    id,
    uuid: request.uuid,
    item_id: 5,
    name: request.name,
    type: 'image/png',
    size: request.blob.size,
    sha256: 'ab'.repeat(32),
    user: { id: 9, name: 'Ann' },
    created_at: '2026-11-25T10:00:00.000Z',
    url: `/api/attachments/${id}/content`,
    thumbnail_url: `/api/attachments/${id}/thumbnail`,
  };
  return { status: 201, data: server, retryAfter: null };
}

function uploaderOf(db: OutpostDb, send: (request: FileRequest) => Promise<FileAnswer>) {
  return createUploader({
    db,
    api: {} as ApiClient,
    send,
    viewer: () => viewer,
    isOnline: () => true,
    lock: createSyncLock('uploads-test', null),
    toast: () => '',
    download: () => undefined,
  });
}

describe('the uploader (SYNC.md A2, A4)', () => {
  it('A2: sends one file at a time, oldest first, and writes its progress at most every 250 ms', async () => {
    const db = freshFakeDb('uploader');
    await db.items.put(localItem(5, 'Gate'));
    const picked = (name: string) => new File([new Uint8Array(3000)], name);
    await addFiles(db, viewer, 5, [picked('first.png')]);
    await sleep(5);
    await addFiles(db, viewer, 5, [picked('second.png')]);
    // What the strip saw of each file's progress: the distinct byte counts stored while it was sent.
    const seen = new Map<string, Set<number>>();
    const took = new Map<string, number>();
    let inFlight = 0;
    let most = 0;
    const order: string[] = [];
    let id = 100;
    const uploader = uploaderOf(db, async (request) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      order.push(request.name);
      expect(request.path).toBe(`/api/items/5/attachments?uuid=${request.uuid}`);
      // Twenty progress events 40 ms apart: 800 ms on the way.
      const stored = new Set<number>();
      seen.set(request.name, stored);
      const began = Date.now();
      for (let sent = 1; sent <= 20; sent++) {
        request.onProgress?.(sent * 150);
        await sleep(40);
        const row = await db.attachments.where('uuid').equals(request.uuid).first();
        expect(row?._upload?.state).toBe('uploading');
        stored.add(row?._upload?.loaded ?? 0);
      }
      took.set(request.name, Date.now() - began);
      inFlight -= 1;
      return answerTo(request, ++id);
    });
    uploader.kick();
    await uploader.settled();

    expect(order).toEqual(['first.png', 'second.png']);
    expect(most).toBe(1);
    // Some 800 ms a file, at most one write per 250 ms: a handful of values, not twenty.
    for (const name of order) {
      const stored = [...(seen.get(name) ?? [])].filter((n) => n > 0);
      expect(stored.length).toBeGreaterThan(1);
      expect(stored.length).toBeLessThanOrEqual(Math.ceil((took.get(name) ?? 0) / PROGRESS_EVERY_MS) + 1);
      expect(stored.length).toBeLessThan(20);
    }
    const rows = await db.attachments.toArray();
    expect(rows.map((r) => [r.id, r._syncStatus, r._upload])).toEqual([
      [101, 'synced', undefined],
      [102, 'synced', undefined],
    ]);
    expect(await db.fileBlobs.count()).toBe(0);
  });

  it('A3: a file whose item has only a temporary id is not sent', async () => {
    const db = freshFakeDb('uploader');
    await db.items.put(localItem(-4, 'Offline item', { _syncStatus: 'pending' }));
    await addFiles(db, viewer, -4, [new File([new Uint8Array(10)], 'later.txt')]);
    let sent = 0;
    const uploader = uploaderOf(db, async (request) => {
      sent += 1;
      return answerTo(request, 1);
    });
    uploader.kick();
    await uploader.settled();
    expect(sent).toBe(0);
    expect((await db.attachments.toArray())[0]?._upload).toEqual({ state: 'waiting' });
  });
});
