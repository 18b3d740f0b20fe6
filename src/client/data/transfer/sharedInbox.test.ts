import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import {
  dropShared,
  readShared,
  SHARE_DB_NAME,
  SHARE_DB_VERSION,
  SHARE_STORE,
  sharedFileOf,
} from './sharedInbox';

const ORIGIN = 'https://outpost.test';

interface Worker {
  outpostShare: {
    DB_NAME: string;
    STORE: string;
    DB_VERSION: number;
    readShare: (form: FormData, id: string, now: Date) => unknown;
  };
  /** Hands a request to the worker's fetch listener: its answer, or null when it let it pass. */
  fetch: (request: Request) => Promise<Response> | null;
}

/** public/share-sw.js as the browser runs it (importScripts), in a context of its own; `clock` is its Date. */
function loadWorker(clock: DateConstructor = Date): Worker {
  const source = readFileSync(path.join(import.meta.dirname, '../../../../public/share-sw.js'), 'utf8');
  const listeners: ((event: unknown) => void)[] = [];
  const self: Record<string, unknown> = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, listener: (event: unknown) => void) => {
      if (type === 'fetch') listeners.push(listener);
    },
  };
  runInNewContext(source, { self, indexedDB, URL, Response, crypto, Date: clock, Promise });
  return {
    outpostShare: self.outpostShare as Worker['outpostShare'],
    fetch: (request) => {
      let answer: Promise<Response> | null = null;
      for (const listener of listeners)
        listener({ request, respondWith: (r: Promise<Response>) => (answer = r) });
      return answer;
    },
  };
}

const post = (form: FormData, where = `${ORIGIN}/share`) =>
  new Request(where, { method: 'POST', body: form });

describe('the share target worker and the inbox', () => {
  it('reads a shared form into a record: words trimmed, each file with its name and type, an empty file field left out', () => {
    const { outpostShare } = loadWorker();
    const form = new FormData();
    form.set('title', '  Broken gate ');
    form.set('text', 'Seen this morning\n');
    form.set('url', '');
    form.append('files', new File(['jpeg bytes'], 'gate.jpg', { type: 'image/jpeg' }));
    form.append('files', new File(['%PDF'], 'quote.pdf', { type: 'application/pdf' }));
    // What a form with an empty file input sends.
    form.append('files', new File([], '', { type: 'application/octet-stream' }));
    const record = outpostShare.readShare(form, 'id-1', new Date('2030-05-01T09:00:00Z')) as {
      files: { name: string; type: string; size: number; blob: Blob }[];
    };
    expect({ ...record, files: record.files.map(({ blob: _, ...f }) => f) }).toEqual({
      id: 'id-1',
      title: 'Broken gate',
      text: 'Seen this morning',
      url: '',
      files: [
        { name: 'gate.jpg', type: 'image/jpeg', size: 10 },
        { name: 'quote.pdf', type: 'application/pdf', size: 4 },
      ],
      created_at: '2030-05-01T09:00:00.000Z',
    });
  });

  it('the worker and the app name the same database, store and version', () => {
    const { outpostShare } = loadWorker();
    expect([outpostShare.DB_NAME, outpostShare.STORE, outpostShare.DB_VERSION]).toEqual([
      SHARE_DB_NAME,
      SHARE_STORE,
      SHARE_DB_VERSION,
    ]);
  });

  it('a POST to /share is kept and answered 303 to /?share=<id>; the app reads it with its files, then drops it', async () => {
    const worker = loadWorker();
    const form = new FormData();
    form.set('text', 'https://example.com/quote');
    form.append('files', new File(['hello'], 'note.txt', { type: 'text/plain' }));
    const answer = await worker.fetch(post(form));
    expect(answer?.status).toBe(303);
    const location = new URL(answer?.headers.get('location') ?? '');
    expect(location.origin + location.pathname).toBe(`${ORIGIN}/`);
    const id = location.searchParams.get('share') ?? '';
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const shared = await readShared(id);
    expect(shared).toMatchObject({ id, title: '', text: 'https://example.com/quote', url: '' });
    expect(shared?.files.map((f) => [f.name, f.type, f.size])).toEqual([['note.txt', 'text/plain', 5]]);
    const file = sharedFileOf(shared!.files[0]!);
    expect([file.name, file.type, await file.text()]).toEqual(['note.txt', 'text/plain', 'hello']);

    await dropShared(id);
    expect(await readShared(id)).toBeNull();
  });

  it('lets every other request pass: a GET of /share, a POST elsewhere, another origin', () => {
    const worker = loadWorker();
    expect(worker.fetch(new Request(`${ORIGIN}/share`))).toBeNull();
    expect(worker.fetch(post(new FormData(), `${ORIGIN}/api/items`))).toBeNull();
    expect(worker.fetch(post(new FormData(), 'https://elsewhere.test/share'))).toBeNull();
  });

  it('a form it cannot read sends the app to /?share=failed', async () => {
    const worker = loadWorker();
    const answer = await worker.fetch(
      new Request(`${ORIGIN}/share`, {
        method: 'POST',
        body: 'not a form',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
      }),
    );
    expect(answer?.status).toBe(303);
    expect(new URL(answer?.headers.get('location') ?? '').search).toBe('?share=failed');
  });

  it('a share nobody finished in a day goes when the next one arrives', async () => {
    const first = await loadWorker().fetch(post(new FormData()));
    const firstId = new URL(first?.headers.get('location') ?? '').searchParams.get('share') ?? '';
    expect(await readShared(firstId)).not.toBeNull();
    const dayLater = Date.now() + 25 * 60 * 60 * 1000;
    /** The worker's `new Date()` a day and an hour on. */
    const Later = class extends Date {
      constructor(...args: [] | [number]) {
        super(args.length === 0 ? dayLater : args[0]);
      }
    } as DateConstructor;
    const next = await loadWorker(Later).fetch(post(new FormData()));
    const nextId = new URL(next?.headers.get('location') ?? '').searchParams.get('share') ?? '';
    expect(await readShared(firstId)).toBeNull();
    expect(await readShared(nextId)).not.toBeNull();
  });
});
