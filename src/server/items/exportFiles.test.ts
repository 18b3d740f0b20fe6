import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postMultipart } from '../../../testkit/multipart';
import { createTestApp, testEngines } from '../../../testkit/server';
import { signedIn, writeDirectly } from '../../../testkit/testClient';
import type { Attachment } from '../../shared/attachments';
import type { ExportDocument } from '../../shared/importExport';
import { sql } from '../db/client';

describe.each(testEngines())('the JSON export lists files (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  /**
   * A file's row as an upload leaves it, written directly: for a size no test uploads (the bytes are
   * the file store's business, not the export's).
   */
  const attach = async (
    itemId: number,
    userId: number,
    file: { name: string; type: string; size: number; at: string; deleted?: boolean },
  ) => {
    const uuid = randomUUID();
    const sha256 = randomUUID().replaceAll('-', '').repeat(2);
    await writeDirectly(harness.app, [userId], (tx) =>
      tx.execute(
        sql`INSERT INTO attachments (uuid, item_id, user_id, name, type, size, sha256, created_at, deleted_at)
            VALUES (${uuid}, ${itemId}, ${userId}, ${file.name}, ${file.type}, ${file.size}, ${sha256},
                    ${file.at}::timestamptz, ${file.deleted ? sql`now()` : sql`NULL`})`,
      ),
    );
    return { uuid, sha256 };
  };

  it('each item carries its live files (uuid, name, type, size, sha256; no path, for JSON has no bytes), oldest first', async () => {
    const owner = await signedIn(harness.app, 'Filer');
    const userId = owner.user!.id;
    const todo = await owner.create({ title: 'Fix the gate', type: 'todo' });
    await owner.create({ title: 'No files', type: 'todo' });
    const notes = new TextEncoder().encode('Gate: 1,200 EUR, fitted Friday');
    const uploaded = await postMultipart<Attachment>(
      harness.app,
      owner,
      `/api/items/${todo.id}/attachments`,
      [{ file: 'file', bytes: notes, name: 'notes.txt', type: 'text/plain' }],
    );
    expect(uploaded.status, uploaded.text).toBe(201);
    // Before the upload (now): the export lists files oldest first.
    const first = await attach(todo.id, userId, {
      name: 'gate.jpg',
      type: 'image/jpeg',
      size: 1234,
      at: '2020-05-01T09:00:00Z',
    });
    const later = await attach(todo.id, userId, {
      name: 'quote.pdf',
      type: 'application/pdf',
      size: 3_000_000_000,
      at: '2020-05-01T10:00:00Z',
    });
    await attach(todo.id, userId, {
      name: 'gone.txt',
      type: 'text/plain',
      size: 1,
      at: '2030-05-01T08:00:00Z',
      deleted: true,
    });
    const res = await owner.get<ExportDocument>('/api/export');
    expect(res.status).toBe(200);
    const byTitle = new Map(res.body.items.map((i) => [i.title, i]));
    expect(byTitle.get('Fix the gate')?.attachments).toEqual([
      {
        uuid: first.uuid,
        name: 'gate.jpg',
        type: 'image/jpeg',
        size: 1234,
        sha256: first.sha256,
        path: null,
      },
      {
        uuid: later.uuid,
        name: 'quote.pdf',
        type: 'application/pdf',
        size: 3_000_000_000,
        sha256: later.sha256,
        path: null,
      },
      {
        uuid: uploaded.body.uuid,
        name: 'notes.txt',
        // The type the server read from the bytes.
        type: uploaded.body.type,
        size: notes.length,
        sha256: createHash('sha256').update(notes).digest('hex'),
        path: null,
      },
    ]);
    expect(byTitle.get('No files')?.attachments).toEqual([]);
  });

  it('a stranger’s export names none of the owner’s files', async () => {
    const owner = await signedIn(harness.app, 'Keeper');
    const todo = await owner.create({ title: 'Private', type: 'todo' });
    await attach(todo.id, owner.user!.id, {
      name: 'secret.pdf',
      type: 'application/pdf',
      size: 9,
      at: '2030-05-01T09:00:00Z',
    });
    const stranger = await signedIn(harness.app, 'Stranger');
    const res = await stranger.get<ExportDocument>('/api/export');
    expect(JSON.stringify(res.body)).not.toContain('secret.pdf');
  });
});
