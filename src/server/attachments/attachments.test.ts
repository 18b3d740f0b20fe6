import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Attachment, tooLargeMessage } from '../../../src/shared/attachments';
import { keysOf } from '../../../testkit/fileStoreContract';
import { tempDiskStore } from '../../../testkit/files';
import { type FormPart, postMultipart } from '../../../testkit/multipart';
import { parsePrometheusText, sampleValue } from '../../../testkit/promText';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { makeMutual, signedIn, type TestClient } from '../../../testkit/testClient';
import type { Item, Paginated } from '../../shared/item';
import { VIEWER_READ_ONLY_MESSAGE } from '../../shared/membership';
import { buildApp } from '../app';
import { type Database, rows, sql } from '../db/client';
import { loadConfig } from '../env';
import type { FileStore } from './fileStore';
import { FILE_CONTENT_SECURITY_POLICY } from './routes';

/** The limit these tests run under: small, so a file over it is quick to send. */
const LIMIT = 256 * 1024;
const METRICS_TOKEN = 'metrics-token-for-attachment-tests-0123';
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.each(testEngines())('files on items on %s', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  let files: Awaited<ReturnType<typeof tempDiskStore>>;
  let store: FileStore;
  let alex: TestClient;
  let blair: TestClient;
  let casey: TestClient;
  let stranger: TestClient;
  let campaign: Item;
  let todo: Item;
  let png: Buffer;

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    files = await tempDiskStore();
    store = files.store;
    app = await buildApp({
      database,
      files: store,
      config: {
        seedSampleUsers: true,
        reminderTickMs: 0,
        attachmentMaxBytes: LIMIT,
        metricsToken: METRICS_TOKEN,
        webhooks: { ...loadConfig({}).webhooks, allowLoopback: true },
      },
    });
    await app.ready();
    alex = await signedIn(app, 'Alex');
    blair = await signedIn(app, 'Blair');
    casey = await signedIn(app, 'Casey');
    stranger = await signedIn(app, 'Stranger');
    await makeMutual(alex, blair, casey);
    campaign = await alex.create({ title: 'Launch', type: 'campaign' });
    const task = await alex.create({ title: 'Write copy', type: 'task', parent_id: campaign.id });
    todo = await alex.create({ title: 'Draft', type: 'todo', parent_id: task.id });
    // Blair edits, Casey only views.
    for (const [client, role] of [
      [blair, 'editor'],
      [casey, 'viewer'],
    ] as const) {
      const added = await alex.post(`/api/campaigns/${campaign.id}/members`, {
        user_id: client.user!.id,
        role,
      });
      expect(added.status, added.text).toBe(201);
    }
    png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await files?.close();
  });

  const upload = (
    client: TestClient | null,
    itemId: number,
    file: { bytes: Uint8Array; name?: string; type?: string },
    options: {
      uuid?: string;
      uuidWhere?: 'before' | 'after' | 'query';
      headers?: Record<string, string>;
    } = {},
  ) => {
    const filePart: FormPart = {
      file: 'file',
      bytes: file.bytes,
      name: file.name ?? 'file.bin',
      ...(file.type ? { type: file.type } : {}),
    };
    const uuidPart: FormPart[] = options.uuid ? [{ field: 'uuid', value: options.uuid }] : [];
    const where = options.uuidWhere ?? 'after';
    const parts =
      where === 'before' ? [...uuidPart, filePart] : where === 'after' ? [filePart, ...uuidPart] : [filePart];
    const query = where === 'query' && options.uuid ? `?uuid=${options.uuid}` : '';
    return postMultipart<Attachment>(
      app,
      client,
      `/api/items/${itemId}/attachments${query}`,
      parts,
      options.headers,
    );
  };
  const content = (client: TestClient, id: number | string, headers?: Record<string, string>) =>
    client.request({ url: `/api/attachments/${id}/content`, ...(headers ? { headers } : {}) });
  const rowsNamed = (uuid: string) =>
    rows<{ id: number }>(database.db, sql`SELECT id FROM attachments WHERE uuid = ${uuid}`);
  const spoolFiles = async () => {
    try {
      return await readdir(store.spoolDir);
    } catch {
      return [];
    }
  };

  it('A8: an editor attaches a file; the answer is the file with its uuid, sha256, size, uploader and url', async () => {
    const bytes = Buffer.from('Quarterly numbers\n');
    const uuid = randomUUID();
    const answer = await upload(blair, todo.id, { bytes, name: 'numbers.txt', type: 'text/plain' }, { uuid });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toEqual({
      id: expect.any(Number),
      uuid,
      item_id: todo.id,
      name: 'numbers.txt',
      type: 'text/plain; charset=utf-8',
      size: bytes.length,
      sha256: sha256(bytes),
      user: { id: blair.user!.id, name: 'Blair' },
      created_at: expect.any(String),
      url: `/api/attachments/${answer.body.id}/content`,
    });
    expect(await store.has(sha256(bytes))).toBe(true);
    expect(await spoolFiles()).toEqual([]);
    const read = await content(casey, answer.body.id);
    expect(read.status).toBe(200);
    expect(read.text).toBe('Quarterly numbers\n');
    // The owner attaches too, and the list is newest first, for whoever sees the item.
    const second = await upload(alex, todo.id, { bytes: Buffer.from('second'), name: 'b.txt' });
    expect(second.status, second.text).toBe(201);
    const listed = await casey.get<Paginated<Attachment>>(`/api/items/${todo.id}/attachments`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((a) => a.id).slice(0, 2)).toEqual([second.body.id, answer.body.id]);
    expect(listed.body).toMatchObject({ current_page: 1, per_page: 50 });
  });

  it('A8: a stranger gets the same 404 as for an item or file that does not exist, on every route', async () => {
    const mine = await upload(alex, todo.id, { bytes: Buffer.from('private'), name: 'p.txt' });
    expect(mine.status).toBe(201);
    const missingItem = 999_999;
    const itemAnswers = async (itemId: number) => [
      await upload(stranger, itemId, { bytes: Buffer.from('x'), name: 'x.txt' }),
      await stranger.get(`/api/items/${itemId}/attachments`),
    ];
    const seen = await itemAnswers(todo.id);
    const missing = await itemAnswers(missingItem);
    for (const [i, answer] of seen.entries()) {
      expect(answer.status).toBe(404);
      expect(answer.text).toBe(missing[i]!.text);
    }
    const fileAnswers = async (id: number) => [
      await content(stranger, id),
      await stranger.get(`/api/attachments/${id}/thumbnail`),
      await stranger.delete(`/api/attachments/${id}`),
    ];
    const theirs = await fileAnswers(mine.body.id);
    const none = await fileAnswers(999_999);
    for (const [i, answer] of theirs.entries()) {
      expect(answer.status).toBe(404);
      expect(answer.text).toBe(none[i]!.text);
    }
    // Nothing the stranger sent was kept.
    expect(await spoolFiles()).toEqual([]);
    expect(await store.has(sha256(Buffer.from('x')))).toBe(false);
  });

  it('A8: a viewer reads files but gets 403 on an upload, and nothing of the upload is kept', async () => {
    const bytes = randomBytes(1000);
    const answer = await upload(casey, todo.id, { bytes, name: 'v.bin' });
    expect(answer.status).toBe(403);
    expect((answer.body as unknown as { message: string }).message).toBe(VIEWER_READ_ONLY_MESSAGE);
    expect(await store.has(sha256(bytes))).toBe(false);
    expect((await casey.get(`/api/items/${todo.id}/attachments`)).status).toBe(200);
  });

  it('A8: an upload passes the same anti-forgery, sign-in and token checks as any write', async () => {
    const bytes = Buffer.from('forged');
    const { TestClient: Client } = await import('../../../testkit/testClient');
    const anonymous = new Client(app);
    await anonymous.csrf();
    expect((await upload(anonymous, todo.id, { bytes })).status).toBe(401);
    const forged = await upload(alex, todo.id, { bytes }, { headers: { 'x-xsrf-token': 'wrong' } });
    expect(forged.status).toBe(419);
    const readToken = await alex.post<{ token: string }>('/api/tokens', { name: 'read', scopes: ['read'] });
    expect(readToken.status, readToken.text).toBe(201);
    const byToken = await upload(
      null,
      todo.id,
      { bytes },
      {
        headers: { authorization: `Bearer ${readToken.body.token}` },
      },
    );
    expect(byToken.status).toBe(403);
    const writeToken = await alex.post<{ token: string }>('/api/tokens', {
      name: 'write',
      scopes: ['write'],
    });
    const written = await upload(
      null,
      todo.id,
      { bytes, name: 'by-token.txt' },
      {
        headers: { authorization: `Bearer ${writeToken.body.token}` },
      },
    );
    expect(written.status, written.text).toBe(201);
    const read = await app.inject({
      url: `/api/attachments/${written.body.id}/content`,
      headers: { authorization: `Bearer ${readToken.body.token}` },
    });
    expect(read.statusCode).toBe(200);
  });

  it('A7: a file over ATTACHMENT_MAX_BYTES is a 413 naming the limit, and nothing of it is kept', async () => {
    const keysBefore = await keysOf(store);
    // Just over: the form's declared length is under the limit and its overhead, so the file is
    // streamed and cut at the limit.
    const justOver = randomBytes(LIMIT + 1);
    const cut = await upload(alex, todo.id, { bytes: justOver, name: 'big.bin' });
    expect(cut.status).toBe(413);
    expect((cut.body as unknown as { message: string }).message).toBe(tooLargeMessage(LIMIT));
    expect(tooLargeMessage(LIMIT)).toContain('256 KB');
    // Far over: refused on its declared length, before a byte is read.
    const far = await upload(alex, todo.id, { bytes: randomBytes(LIMIT * 2), name: 'bigger.bin' });
    expect(far.status).toBe(413);
    expect((far.body as unknown as { message: string }).message).toBe(tooLargeMessage(LIMIT));
    expect(await keysOf(store)).toEqual(keysBefore);
    expect(await spoolFiles()).toEqual([]);
    // Exactly at the limit is fine.
    const atLimit = await upload(alex, todo.id, { bytes: randomBytes(LIMIT), name: 'exact.bin' });
    expect(atLimit.status, atLimit.text).toBe(201);
    expect(atLimit.body.size).toBe(LIMIT);
  });

  it('A7, A8: over a real connection a refusal reaches the client whole, whether the body was read or not', async () => {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const send = async (client: TestClient, bytes: Uint8Array) => {
      const form = new FormData();
      form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), 'sent.bin');
      const response = await fetch(`${address}/api/items/${todo.id}/attachments`, {
        method: 'POST',
        headers: {
          cookie: client.cookieHeader(),
          'x-xsrf-token': decodeURIComponent(client.jar.get('XSRF-TOKEN')!),
        },
        body: form,
      });
      return { status: response.status, body: (await response.json()) as { message?: string } };
    };
    // Refused on its declared length, on the item, or on the role: answered before the body is read.
    expect(await send(alex, randomBytes(LIMIT * 3))).toEqual({
      status: 413,
      body: { message: tooLargeMessage(LIMIT) },
    });
    expect((await send(stranger, randomBytes(LIMIT))).status).toBe(404);
    expect((await send(casey, randomBytes(LIMIT))).status).toBe(403);
    // Cut while streamed: answered once the rest has been read.
    expect(await send(alex, randomBytes(LIMIT + 10))).toEqual({
      status: 413,
      body: { message: tooLargeMessage(LIMIT) },
    });
    expect((await send(alex, Buffer.from('after the refusals'))).status).toBe(201);
    expect(await spoolFiles()).toEqual([]);
  });

  it('A7: the type is read from the bytes: a PNG named .txt and sent as text/plain is image/png', async () => {
    const answer = await upload(alex, todo.id, { bytes: png, name: 'notes.txt', type: 'text/plain' });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toMatchObject({ type: 'image/png', name: 'notes.txt', width: 800, height: 600 });
    const read = await content(alex, answer.body.id);
    expect(read.headers['content-type']).toBe('image/png');
    expect(read.headers['content-disposition']).toMatch(/^inline;/);
  });

  it('A7, A9: an HTML file sent as image/png is text/html and never served inline', async () => {
    const html = Buffer.from(
      '<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>',
    );
    const answer = await upload(alex, todo.id, { bytes: html, name: 'cat.png', type: 'image/png' });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.type).toBe('text/html; charset=utf-8');
    expect(answer.body.thumbnail_url).toBeUndefined();
    const read = await content(alex, answer.body.id);
    expect(read.headers['content-disposition']).toBe(
      `attachment; filename="cat.png"; filename*=UTF-8''cat.png`,
    );
    expect(read.headers['content-security-policy']).toBe(FILE_CONTENT_SECURITY_POLICY);
    expect(read.headers['x-content-type-options']).toBe('nosniff');
    // Markup later in a text file, and an SVG, download as well; plain text and a PDF open in place.
    const cases: [Buffer, string, string, 'inline' | 'attachment'][] = [
      [
        Buffer.from('Notes\n\n<script src=x></script>\n'),
        'notes.txt',
        'text/html; charset=utf-8',
        'attachment',
      ],
      [
        Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"></svg>'),
        'a.svg',
        'application/xml',
        'attachment',
      ],
      [
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>'),
        'b.svg',
        'image/svg+xml',
        'attachment',
      ],
      [Buffer.from('Plain words, 3 < 4\n'), 'plain.txt', 'text/plain; charset=utf-8', 'inline'],
      [
        Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n', 'latin1'),
        'doc',
        'application/pdf',
        'inline',
      ],
      [
        Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00]),
        'setup.txt',
        'application/x-msdownload',
        'attachment',
      ],
      [Buffer.from([0x01, 0x02, 0x00, 0x7f, 0x10]), 'blob.txt', 'application/octet-stream', 'attachment'],
      [Buffer.from([0x41, 0xc3, 0x28, 0x42, 0x0a]), 'odd.txt', 'application/octet-stream', 'attachment'],
    ];
    for (const [bytes, name, type, how] of cases) {
      const sent = await upload(alex, todo.id, { bytes, name, type: 'text/plain' });
      expect(sent.body.type, name).toBe(type);
      const got = await content(alex, sent.body.id);
      expect(got.headers['content-type'], name).toBe(type);
      expect(String(got.headers['content-disposition']).split(';')[0], name).toBe(how);
    }
  });

  it('A9: the content answers nosniff, the sandbox, a private cache, its sha256 as ETag (304 when named), and its name in both forms', async () => {
    const bytes = Buffer.from('Zoë’s plan: “go”\n');
    const answer = await upload(alex, todo.id, { bytes, name: 'Zoë plan ☃.txt' });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.name).toBe('Zoë plan ☃.txt');
    const read = await content(alex, answer.body.id);
    expect(read.status).toBe(200);
    expect(read.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'content-security-policy': FILE_CONTENT_SECURITY_POLICY,
      etag: `"${sha256(bytes)}"`,
      'accept-ranges': 'bytes',
      'content-length': String(bytes.length),
      'content-disposition': `inline; filename="Zo_ plan _.txt"; filename*=UTF-8''Zo%C3%AB%20plan%20%E2%98%83.txt`,
    });
    expect(read.headers['content-security-policy']).toMatch(/^sandbox/);
    expect(read.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    const again = await content(alex, answer.body.id, { 'if-none-match': `"${sha256(bytes)}"` });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.etag).toBe(`"${sha256(bytes)}"`);
    const changed = await content(alex, answer.body.id, { 'if-none-match': '"other"' });
    expect(changed.status).toBe(200);
    const head = await alex.request({ method: 'HEAD', url: `/api/attachments/${answer.body.id}/content` });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(bytes.length));
  });

  it('A9: one Range is a 206 with Content-Range, a range past the end a 416, several the whole file', async () => {
    const bytes = Buffer.from('0123456789');
    const answer = await upload(alex, todo.id, { bytes, name: 'digits.txt' });
    const id = answer.body.id;
    const part = await content(alex, id, { range: 'bytes=2-5' });
    expect(part.status).toBe(206);
    expect(part.text).toBe('2345');
    expect(part.headers['content-range']).toBe('bytes 2-5/10');
    expect(part.headers['content-length']).toBe('4');
    expect(part.headers['content-security-policy']).toBe(FILE_CONTENT_SECURITY_POLICY);
    expect((await content(alex, id, { range: 'bytes=7-' })).text).toBe('789');
    expect((await content(alex, id, { range: 'bytes=-3' })).text).toBe('789');
    expect((await content(alex, id, { range: 'bytes=8-100' })).headers['content-range']).toBe('bytes 8-9/10');
    const past = await content(alex, id, { range: 'bytes=10-12' });
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe('bytes */10');
    const several = await content(alex, id, { range: 'bytes=0-1,4-5' });
    expect(several.status).toBe(200);
    expect(several.text).toBe('0123456789');
    // An If-Range naming other bytes gets the whole file.
    const stale = await content(alex, id, { range: 'bytes=2-5', 'if-range': '"old"' });
    expect(stale.status).toBe(200);
    const fresh = await content(alex, id, { range: 'bytes=2-5', 'if-range': `"${sha256(bytes)}"` });
    expect(fresh.status).toBe(206);
  });

  it('A4: the same uuid twice stores one row and one copy; the second answer is the first file (200)', async () => {
    const bytes = randomBytes(5000);
    for (const where of ['after', 'before', 'query'] as const) {
      const uuid = randomUUID();
      const first = await upload(blair, todo.id, { bytes, name: `${where}.bin` }, { uuid, uuidWhere: where });
      expect(first.status, first.text).toBe(201);
      const second = await upload(
        blair,
        todo.id,
        { bytes, name: `${where}.bin` },
        { uuid, uuidWhere: where },
      );
      expect(second.status, second.text).toBe(200);
      expect(second.body).toEqual(first.body);
      expect(await rowsNamed(uuid)).toHaveLength(1);
    }
    // Three files of the same bytes: one copy in the store.
    expect((await keysOf(store)).filter((k) => k === sha256(bytes))).toHaveLength(1);
    // An Idempotency-Key repeat is answered from its record, as for any write.
    const key = randomUUID();
    const keyed = await upload(
      blair,
      todo.id,
      { bytes, name: 'keyed.bin' },
      { headers: { 'idempotency-key': key } },
    );
    expect(keyed.status, keyed.text).toBe(201);
    const repeat = await upload(
      blair,
      todo.id,
      { bytes, name: 'keyed.bin' },
      { headers: { 'idempotency-key': key } },
    );
    expect(repeat.status).toBe(201);
    expect(repeat.body.id).toBe(keyed.body.id);
    expect(await rowsNamed(keyed.body.uuid)).toHaveLength(1);
    // A uuid of another item's file, or a form and a query naming two, is a 422.
    const uuid = randomUUID();
    expect((await upload(blair, todo.id, { bytes }, { uuid })).status).toBe(201);
    const elsewhere = await upload(blair, campaign.id, { bytes }, { uuid });
    expect(elsewhere.status).toBe(422);
    const both = await postMultipart(app, blair, `/api/items/${todo.id}/attachments?uuid=${randomUUID()}`, [
      { field: 'uuid', value: randomUUID() },
      { file: 'file', bytes, name: 'x.bin' },
    ]);
    expect(both.status).toBe(422);
    const bad = await upload(blair, todo.id, { bytes }, { uuid: 'not-a-uuid' });
    expect(bad.status).toBe(422);
  });

  it('an upload without a file part, with two, or not multipart at all is refused with a message', async () => {
    const none = await postMultipart(app, alex, `/api/items/${todo.id}/attachments`, [
      { field: 'uuid', value: randomUUID() },
    ]);
    expect(none.status).toBe(422);
    expect(JSON.stringify(none.body)).toContain('part named');
    const two = await postMultipart(app, alex, `/api/items/${todo.id}/attachments`, [
      { file: 'file', bytes: Buffer.from('a'), name: 'a' },
      { file: 'file', bytes: Buffer.from('b'), name: 'b' },
    ]);
    expect(two.status).toBe(422);
    const crowded = await postMultipart(app, alex, `/api/items/${todo.id}/attachments`, [
      { field: 'a', value: '1' },
      { field: 'b', value: '2' },
      { field: 'c', value: '3' },
      { file: 'file', bytes: Buffer.from('a'), name: 'a' },
    ]);
    expect(crowded.status).toBe(422);
    const json = await alex.post(`/api/items/${todo.id}/attachments`, { file: 'x' });
    expect(json.status).toBe(415);
    const broken = await app.inject({
      method: 'POST',
      url: `/api/items/${todo.id}/attachments`,
      headers: {
        cookie: alex.cookieHeader(),
        'x-xsrf-token': decodeURIComponent(alex.jar.get('XSRF-TOKEN')!),
        'content-type': 'multipart/form-data; boundary=xyz',
      },
      payload: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nhalf a part',
    });
    expect(broken.statusCode).toBe(400);
    expect(await spoolFiles()).toEqual([]);
  });

  it('deletes: the uploader or who may delete the item; others who see it 403, strangers 404; a tombstone stays', async () => {
    const byBlair = await upload(blair, todo.id, { bytes: Buffer.from('b1'), name: 'b1.txt' });
    const byAlex = await upload(alex, todo.id, { bytes: Buffer.from('a1'), name: 'a1.txt' });
    // Blair (an editor, not the item's creator) may not delete Alex's file; Casey (a viewer) neither.
    expect((await blair.delete(`/api/attachments/${byAlex.body.id}`)).status).toBe(403);
    expect((await casey.delete(`/api/attachments/${byBlair.body.id}`)).status).toBe(403);
    expect((await stranger.delete(`/api/attachments/${byBlair.body.id}`)).status).toBe(404);
    // Alex created the item (and the campaign): any file on it.
    expect((await alex.delete(`/api/attachments/${byBlair.body.id}`)).status).toBe(204);
    expect((await alex.delete(`/api/attachments/${byBlair.body.id}`)).status).toBe(404);
    expect((await content(alex, byBlair.body.id)).status).toBe(404);
    // The uploader deletes their own, named by the uuid their device gave it.
    const uuid = randomUUID();
    const own = await upload(blair, todo.id, { bytes: Buffer.from('b2'), name: 'b2.txt' }, { uuid });
    expect((await alex.delete(`/api/attachments/${uuid}`)).status).toBe(404);
    expect((await blair.delete(`/api/attachments/${uuid}`)).status).toBe(204);
    const [row] = await rows<{ deleted_at: Date | null }>(
      database.db,
      sql`SELECT deleted_at FROM attachments WHERE id = ${own.body.id}`,
    );
    expect(row?.deleted_at).not.toBeNull();
    const listed = await alex.get<Paginated<Attachment>>(`/api/items/${todo.id}/attachments`);
    expect(listed.body.data.map((a) => a.id)).not.toContain(own.body.id);
    // Bytes stay until the purge (A11).
    expect(await store.has(sha256(Buffer.from('b2')))).toBe(true);
  });

  it('announces files to webhooks as attachment.created and attachment.deleted, with the file', async () => {
    const hook = await alex.post<{ id: number }>('/api/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      events: ['attachment.created', 'attachment.deleted'],
    });
    expect(hook.status, hook.text).toBe(201);
    const created = await upload(blair, todo.id, { bytes: png, name: 'photo.png' });
    expect((await blair.delete(`/api/attachments/${created.body.id}`)).status).toBe(204);
    const deliveries = await rows<{ event_type: string; payload: string }>(
      database.db,
      sql`SELECT event_type, payload FROM webhook_deliveries WHERE webhook_id = ${hook.body.id} ORDER BY id`,
    );
    expect(deliveries.map((d) => d.event_type)).toEqual(['attachment.created', 'attachment.deleted']);
    for (const delivery of deliveries) {
      expect(JSON.parse(delivery.payload)).toMatchObject({
        type: delivery.event_type,
        data: {
          attachment: {
            id: created.body.id,
            name: 'photo.png',
            type: 'image/png',
            sha256: sha256(png),
            thumbnail_url: `/api/attachments/${created.body.id}/thumbnail`,
          },
        },
      });
    }
  });
  it('counts every upload in /metrics by what came of it: stored, repeated, too large, refused, failed', async () => {
    const counts = async () => {
      const scraped = await app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(scraped.statusCode).toBe(200);
      const families = parsePrometheusText(scraped.body);
      const of = (result: string) => sampleValue(families, 'outpost_attachment_uploads_total', { result });
      return {
        stored: of('stored'),
        repeated: of('repeated'),
        too_large: of('too_large'),
        refused: of('refused'),
        failed: of('failed'),
      };
    };
    const before = await counts();
    const uuid = randomUUID();
    expect((await upload(alex, todo.id, { bytes: randomBytes(100) }, { uuid })).status).toBe(201);
    expect((await upload(alex, todo.id, { bytes: randomBytes(100) }, { uuid })).status).toBe(200);
    expect((await upload(alex, todo.id, { bytes: randomBytes(LIMIT + 1) })).status).toBe(413);
    expect((await upload(casey, todo.id, { bytes: randomBytes(100) })).status).toBe(403);
    expect((await upload(stranger, todo.id, { bytes: randomBytes(100) })).status).toBe(404);
    // Not signed in: refused before the handler, and counted all the same.
    const anonymous = (await upload(null, todo.id, { bytes: randomBytes(100) })).status;
    expect(anonymous >= 400 && anonymous < 500, String(anonymous)).toBe(true);
    // The store fails: the bytes cannot be put, and the upload is a 5xx that says so.
    const putFile = store.putFile;
    store.putFile = async () => {
      throw new Error('the disk is full');
    };
    try {
      const failed = await upload(alex, todo.id, { bytes: randomBytes(100) });
      expect(failed.status).toBeGreaterThanOrEqual(500);
    } finally {
      store.putFile = putFile;
    }
    const after = await counts();
    expect({
      stored: after.stored - before.stored,
      repeated: after.repeated - before.repeated,
      too_large: after.too_large - before.too_large,
      refused: after.refused - before.refused,
      failed: after.failed - before.failed,
    }).toEqual({ stored: 1, repeated: 1, too_large: 1, refused: 3, failed: 1 });
  });
});
