import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { changesDelivered } from '../../../testkit/changes';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { makeMutual, signedIn, TestClient, uniquePhone } from '../../../testkit/testClient';
import { deviceSessionsSchema } from '../../shared/devices';
import { buildApp } from '../app';
import { type Database, openDatabase, sql } from '../db/client';
import { hashToken } from '../http/session';
import { STREAMS_PER_SESSION, STREAMS_PER_USER } from './routes';

/** The `signed_out` events in a stream's text, as their data (E7). */
const signedOutEvents = (text: string): unknown[] =>
  [...text.matchAll(/event: signed_out\ndata: (.*)\n/g)].map((m) => JSON.parse(m[1]!));

/** A moment for streams across instances to hear what was written. */
const pause = () => new Promise((resolve) => setTimeout(resolve, 300));

/** An open event stream that counts `changed` events as they arrive. */
async function openStream(baseUrl: string, client: TestClient) {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/events`, {
    headers: { cookie: client.cookieHeader(), accept: 'text/event-stream' },
    signal: controller.signal,
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let changed = 0;
  let ended = false;
  const waiters: (() => void)[] = [];
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          ended = true;
          for (const wake of waiters.splice(0)) wake();
          return;
        }
        text += decoder.decode(value, { stream: true });
        changed = text.split('event: changed').length - 1;
        for (const wake of waiters.splice(0)) wake();
      }
    } catch {
      // Aborted at the end of the test.
    }
  })();
  return {
    response,
    text: () => text,
    changed: () => changed,
    /** Resolves once at least `count` events arrived, or rejects after `ms`. */
    async waitFor(count: number, ms = 3000): Promise<number> {
      const started = Date.now();
      while (changed < count) {
        if (Date.now() - started > ms) throw new Error(`expected ${count} changed events, got ${changed}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return Date.now() - started;
    },
    /** Resolves once the server has ended the stream, or rejects after `ms`. */
    async waitForEnd(ms = 3000): Promise<void> {
      const started = Date.now();
      while (!ended) {
        if (Date.now() - started > ms) throw new Error('the stream is still open');
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
    close: () => controller.abort(),
  };
}

describe.each(testEngines())('GET /api/events on %s', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  let url: string;
  /**
   * Every change so far has reached the streams (PostgreSQL's may lag seconds behind a write under
   * load, E6), and a moment more for what they wrote to arrive here.
   */
  const settle = async () => {
    await changesDelivered(app);
    await new Promise((resolve) => setTimeout(resolve, 100));
  };

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    app = await buildApp({ database, config: { seedSampleUsers: true } });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('refuses a stream without a session', async () => {
    const response = await fetch(`${url}/api/events`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: 'Unauthenticated.' });
  });

  it('opens the stream at once with event-stream headers', async () => {
    const alex = await signedIn(app, 'Alex');
    const stream = await openStream(url, alex);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toContain('text/event-stream');
    expect(stream.response.headers.get('cache-control')).toContain('no-cache');
    stream.close();
  });

  it('sends changed to the creator, the assignee and whoever sees the item through an ancestor', async () => {
    const owner = await signedIn(app, 'Owner');
    const campaignAssignee = await signedIn(app, 'Campaign assignee');
    const todoAssignee = await signedIn(app, 'Todo assignee');
    await makeMutual(owner, campaignAssignee, todoAssignee);
    const campaign = await owner.create({ title: 'Launch', type: 'campaign' });
    const task = await owner.create({ title: 'Venue', type: 'task', parent_id: campaign.id });
    await owner.post(`/api/items/${campaign.id}/assign`, { user_id: campaignAssignee.user!.id });
    const todo = await owner.create({
      title: 'Call the hall',
      type: 'todo',
      parent_id: task.id,
      assigned_to: todoAssignee.user!.id,
    });
    await settle();

    const streams = await Promise.all([owner, campaignAssignee, todoAssignee].map((c) => openStream(url, c)));
    await settle();
    await owner.update(todo.id, { title: 'Call the hall again' });
    for (const stream of streams) await stream.waitFor(1);
    for (const stream of streams) stream.close();
  });

  it('E3: a contacts import that makes two people mutual tells both streams, with a new mutuals version', async () => {
    const ana = await signedIn(app, 'Ana');
    const ben = await signedIn(app, 'Ben');
    const stranger = await signedIn(app, 'Stranger');
    const versions = (text: string) =>
      [...text.matchAll(/event: mutuals\ndata: (\{[^\n]*\})/g)].map(
        (m) => (JSON.parse(m[1] ?? '{}') as { version: string }).version,
      );
    const streams = await Promise.all([ana, ben, stranger].map((c) => openStream(url, c)));
    await settle();
    // Each stream says where it starts: no mutual contacts yet.
    for (const stream of streams) expect(versions(stream.text())).toEqual(['']);

    await ana.post('/api/contacts/sync', { contacts: [ben.user!.phone] });
    await streams[0]!.waitFor(1);
    await settle();
    // Only Ana has Ben: not mutual yet, so nobody's list moved and Ben hears nothing.
    expect(versions(streams[0]!.text())).toEqual(['']);
    expect(streams[1]!.changed()).toBe(0);

    await ben.post('/api/contacts/sync', { contacts: [ana.user!.phone] });
    await streams[0]!.waitFor(2);
    await streams[1]!.waitFor(1);
    await settle();
    const [anaVersions, benVersions] = [versions(streams[0]!.text()), versions(streams[1]!.text())];
    expect(anaVersions).toHaveLength(2);
    expect(anaVersions[1]).not.toBe('');
    expect(benVersions).toHaveLength(2);
    expect(benVersions[1]).not.toBe('');
    // The stranger learns nothing of it.
    expect(streams[2]!.changed()).toBe(0);
    expect(versions(streams[2]!.text())).toEqual(['']);
    for (const stream of streams) stream.close();
  });

  it('sends nothing to a user who cannot see the item', async () => {
    const owner = await signedIn(app, 'Owner');
    const stranger = await signedIn(app, 'Stranger');
    const sibling = await signedIn(app, 'Sibling assignee');
    await makeMutual(owner, sibling);
    const campaign = await owner.create({ title: 'Private', type: 'campaign' });
    await owner.create({
      title: 'Theirs',
      type: 'todo',
      parent_id: campaign.id,
      assigned_to: sibling.user!.id,
    });
    const mine = await owner.create({ title: 'Mine', type: 'todo', parent_id: campaign.id });
    await settle();

    const ownerStream = await openStream(url, owner);
    const strangerStream = await openStream(url, stranger);
    const siblingStream = await openStream(url, sibling);
    await settle();
    await owner.update(mine.id, { title: 'Mine, renamed' });
    await ownerStream.waitFor(1);
    await settle();
    expect(strangerStream.changed()).toBe(0);
    expect(siblingStream.changed()).toBe(0);
    for (const s of [ownerStream, strangerStream, siblingStream]) s.close();
  });

  it('sends nothing for a write that fails', async () => {
    const owner = await signedIn(app, 'Owner');
    const stream = await openStream(url, owner);
    await settle();
    const response = await owner.post('/api/items', { title: '', type: 'todo' });
    expect(response.status).toBe(422);
    await settle();
    expect(stream.changed()).toBe(0);
    stream.close();
  });

  it('ends the stream when its session signs out, and delivers nothing after', async () => {
    const phone = uniquePhone();
    const leaving = new TestClient(app);
    await leaving.login(phone, 'Leaving');
    // The same user on another device, still signed in: it makes the changes.
    const staying = new TestClient(app);
    await staying.login(phone, 'Leaving');
    const stream = await openStream(url, leaving);
    await settle();
    await staying.create({ title: 'Before sign-out', type: 'todo' });
    await stream.waitFor(1);

    expect((await leaving.post('/api/logout')).status).toBe(204);
    await stream.waitForEnd();
    await staying.create({ title: 'After sign-out', type: 'todo' });
    await settle();
    expect(stream.changed()).toBe(1);
    // The server lets go of a closed stream's session when it notices the close (earlier tests' too).
    await vi.waitFor(() => expect(app.sessionCache.watchedCount()).toBe(0), { timeout: 10_000 });
  });

  it('ends the stream when a new sign-in replaces its session', async () => {
    const phone = uniquePhone();
    const client = new TestClient(app);
    await client.login(phone, 'Switching');
    const other = new TestClient(app);
    await other.login(phone, 'Switching');
    const stream = await openStream(url, client);
    await settle();
    const again = await client.post('/api/login', { phone: uniquePhone(), name: 'Someone else' });
    expect(again.status).toBe(200);
    await stream.waitForEnd();
    await other.create({ title: 'For the first user', type: 'todo' });
    await settle();
    expect(stream.changed()).toBe(0);
  });

  it('E7: a sign-out, a device signed out from another and sign out everywhere end every stream of the session with signed_out and the reason, and nothing follows', async () => {
    const phone = uniquePhone();
    const device = async () => {
      const client = new TestClient(app);
      await client.login(phone, 'Ending');
      return client;
    };
    const leaving = await device();
    const removed = await device();
    const remover = await device();
    const tabs = [await openStream(url, leaving), await openStream(url, leaving)];
    const removedStream = await openStream(url, removed);
    const removerStream = await openStream(url, remover);
    await settle();

    expect((await leaving.post('/api/logout')).status).toBe(204);
    for (const tab of tabs) {
      await tab.waitForEnd(1000);
      expect(signedOutEvents(tab.text())).toEqual([{ reason: 'logout' }]);
      expect(tab.text().endsWith('event: signed_out\ndata: {"reason":"logout"}\n\n')).toBe(true);
    }

    const listed = deviceSessionsSchema.parse((await removed.get('/api/sessions')).body);
    const removedId = listed.sessions.find((s) => s.current)!.id;
    expect((await remover.delete(`/api/sessions/${removedId}`)).status).toBe(204);
    await removedStream.waitForEnd(1000);
    expect(signedOutEvents(removedStream.text())).toEqual([{ reason: 'device' }]);

    // The remover's own write reaches none of the ended streams.
    await remover.create({ title: 'After the sign-outs', type: 'todo' });
    await settle();
    for (const ended of [...tabs, removedStream]) expect(ended.changed()).toBe(0);
    expect(removerStream.changed()).toBe(1);

    expect((await remover.post('/api/logout', { everywhere: true })).status).toBe(204);
    await removerStream.waitForEnd(1000);
    expect(signedOutEvents(removerStream.text())).toEqual([{ reason: 'everywhere' }]);
  });

  it('E7: a stream that finds its session gone without word of it ends with signed_out expired', async () => {
    const phone = uniquePhone();
    const gone = new TestClient(app);
    await gone.login(phone, 'Gone');
    const other = new TestClient(app);
    await other.login(phone, 'Gone');
    const stream = await openStream(url, gone);
    await settle();
    // What the sweeper or a lost word between instances leaves: the row is gone, nobody said so.
    const id = hashToken(gone.jar.get('outpost_session')!);
    await app.database.db.execute(sql`DELETE FROM sessions WHERE id = ${id}`);
    app.sessionCache.delete(id);
    await other.create({ title: 'Seen by nobody there', type: 'todo' });
    await stream.waitForEnd(5000);
    expect(stream.changed()).toBe(0);
    expect(signedOutEvents(stream.text())).toEqual([{ reason: 'expired' }]);
  });

  /** Opens streams until one is answered 200, or fails after `ms` (a closed stream is released on its close event). */
  const openOnceFree = async (client: TestClient, ms = 3000) => {
    const started = Date.now();
    for (;;) {
      const stream = await openStream(url, client);
      if (stream.response.status === 200) return stream;
      stream.close();
      if (Date.now() - started > ms) throw new Error(`still ${stream.response.status} after ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('refuses a sixth open stream of one session with a 429 and a message, and lets one open again after a close (F9)', async () => {
    const client = await signedIn(app, 'Tabby');
    const streams = [];
    for (let i = 0; i < STREAMS_PER_SESSION; i++) {
      const stream = await openStream(url, client);
      expect(stream.response.status, `stream ${i + 1}`).toBe(200);
      streams.push(stream);
    }
    const over = await fetch(`${url}/api/events`, { headers: { cookie: client.cookieHeader() } });
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await over.json()).message).toMatch(/streams/);
    streams.shift()?.close();
    streams.push(await openOnceFree(client));
    for (const stream of streams) stream.close();
  });

  it('refuses a stream past twenty for one user across sessions, and releases them all on close (F9)', async () => {
    const phone = uniquePhone();
    const sessions: TestClient[] = [];
    for (let i = 0; i < 6; i++) {
      const client = new TestClient(app);
      await client.login(phone, 'Many');
      sessions.push(client);
    }
    const streams = [];
    for (let i = 0; i < STREAMS_PER_USER; i++) {
      const stream = await openStream(url, sessions[i % 5]!);
      expect(stream.response.status, `stream ${i + 1}`).toBe(200);
      streams.push(stream);
    }
    const over = await fetch(`${url}/api/events`, { headers: { cookie: sessions[5]!.cookieHeader() } });
    expect(over.status).toBe(429);
    expect((await over.json()).message).toMatch(/streams/);
    for (const stream of streams) stream.close();
    const again = await openOnceFree(sessions[5]!);
    again.close();
  });

  it('ends open streams when the server closes', async () => {
    const other = await buildApp({ database, config: { seedSampleUsers: false } });
    const otherUrl = await other.listen({ port: 0, host: '127.0.0.1' });
    const client = await signedIn(other, 'Closer');
    await openStream(otherUrl, client);
    await settle();
    expect(other.changes.listenerCount()).toBe(1);
    await other.close();
    expect(other.changes.listenerCount()).toBe(0);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('change events across instances sharing PostgreSQL', () => {
  let database: Database;
  let second: Database;
  let appA: FastifyInstance;
  let appB: FastifyInstance;
  let urlB: string;

  beforeAll(async () => {
    database = await openTestDatabase('pg');
    second = await openDatabase({ url: database.url! });
    appA = await buildApp({ database, config: { seedSampleUsers: true } });
    appB = await buildApp({ database: second, config: { seedSampleUsers: false } });
    await appA.ready();
    urlB = await appB.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await appB.close();
    await appA.close();
    await second.close();
    await database.close();
  });

  it('delivers a write on instance A to a stream on instance B', async () => {
    const onA = await signedIn(appA, 'Alex');
    const onB = new TestClient(appB);
    for (const [name, value] of onA.jar) onB.jar.set(name, value);
    const stream = await openStream(urlB, onB);
    await pause();
    await onA.create({ title: 'Written on A', type: 'todo' });
    const waited = await stream.waitFor(1);
    expect(waited).toBeLessThan(3000);
    stream.close();
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('change events and the pull horizon on PostgreSQL', () => {
  it('E6: a change made while an older transaction is open is announced only once a pull can see it', async () => {
    const database = await openTestDatabase('pg');
    const app = await buildApp({ database, config: { seedSampleUsers: false } });
    // Any open transaction of the cluster holds the pull horizon back (L1), here one on the same database.
    const holder = new pg.Client({ connectionString: database.url! });
    try {
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      const client = await signedIn(app, 'Horizon');
      const stream = await openStream(url, client);
      await pause();
      const before = stream.changed();
      await holder.connect();
      await holder.query('BEGIN');
      await holder.query('SELECT pg_current_xact_id()');
      const item = await client.create({ title: 'Behind the horizon', type: 'todo' });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(stream.changed()).toBe(before);
      const hidden = await client.get<{ items: { uuid: string }[] }>('/api/sync?cursor=');
      expect(hidden.body.items.map((i) => i.uuid)).not.toContain(item.uuid);
      await holder.query('COMMIT');
      await stream.waitFor(before + 1, 3000);
      const seen = await client.get<{ items: { uuid: string }[] }>('/api/sync?cursor=');
      expect(seen.body.items.map((i) => i.uuid)).toContain(item.uuid);
      stream.close();
    } finally {
      await holder.end().catch(() => {});
      await app.close();
      await database.close();
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('event streams across a lost LISTEN connection', () => {
  it('tells every open stream to read again once LISTEN is back, so a write made in the gap is not missed (F10)', async () => {
    const database = await openTestDatabase('pg');
    const app = await buildApp({ database, config: { seedSampleUsers: false } });
    try {
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      const client = await signedIn(app, 'Listener');
      const stream = await openStream(url, client);
      await pause();
      const before = stream.changed();
      // What a PostgreSQL restart does to the listening connection, without restarting the cluster
      // other tests share: its backend is ended, and the bus reconnects with backoff.
      await database.db.execute(
        sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
      );
      await stream.waitFor(before + 1, 5000);
      stream.close();
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('event streams end at sign-out on another instance', () => {
  let database: Database;
  let second: Database;
  let appA: FastifyInstance;
  let appB: FastifyInstance;
  let urlB: string;

  beforeAll(async () => {
    database = await openTestDatabase('pg');
    second = await openDatabase({ url: database.url! });
    appA = await buildApp({ database, config: { seedSampleUsers: false } });
    // B trusts its session cache for SESSION_CACHE_MS; with 0 it asks the database every time.
    appB = await buildApp({ database: second, config: { seedSampleUsers: false, sessionCacheMs: 0 } });
    await appA.ready();
    urlB = await appB.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await appB.close();
    await appA.close();
    await second.close();
    await database.close();
  });

  it('ends a stream on instance B, undelivered, when its session signs out on instance A', async () => {
    const phone = uniquePhone();
    const leaving = new TestClient(appA);
    await leaving.login(phone, 'Leaving');
    const staying = new TestClient(appA);
    await staying.login(phone, 'Leaving');
    const onB = new TestClient(appB);
    for (const [name, value] of leaving.jar) onB.jar.set(name, value);
    const stream = await openStream(urlB, onB);
    await pause();

    expect((await leaving.post('/api/logout')).status).toBe(204);
    await staying.create({ title: 'After sign-out', type: 'todo' });
    await stream.waitForEnd();
    expect(stream.changed()).toBe(0);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)(
  'E7: sign-outs reach the streams of every instance at once',
  () => {
    let database: Database;
    let second: Database;
    let appA: FastifyInstance;
    let appB: FastifyInstance;
    let urlB: string;

    beforeAll(async () => {
      database = await openTestDatabase('pg');
      second = await openDatabase({ url: database.url! });
      appA = await buildApp({ database, config: { seedSampleUsers: false } });
      // B trusts a session it looked up for the usual 5 s: only the word from A can end it sooner.
      appB = await buildApp({ database: second, config: { seedSampleUsers: false, sessionCacheMs: 5000 } });
      await appA.ready();
      urlB = await appB.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      await appB.close();
      await appA.close();
      await second.close();
      await database.close();
    });

    /** A device signed in on A whose twin on B (the same cookies) has an open stream there. */
    async function deviceStreamingOnB(phone: string) {
      const onA = new TestClient(appA);
      await onA.login(phone, 'Two instances');
      const onB = new TestClient(appB);
      for (const [name, value] of onA.jar) onB.jar.set(name, value);
      // B has looked the session up, so its cache vouches for it for the next 5 s.
      expect((await onB.get('/api/me')).status).toBe(200);
      return { onA, onB, stream: await openStream(urlB, onB) };
    }

    it('E7: signing a device out on A ends its stream on B within a second with signed_out device, before any later change', async () => {
      const phone = uniquePhone();
      const removed = await deviceStreamingOnB(phone);
      const remover = new TestClient(appA);
      await remover.login(phone, 'Two instances');
      await pause();
      const { sessions } = deviceSessionsSchema.parse((await removed.onA.get('/api/sessions')).body);
      const id = sessions.find((s) => s.current)!.id;

      expect((await remover.delete(`/api/sessions/${id}`)).status).toBe(204);
      await remover.create({ title: 'Right after', type: 'todo' });
      await removed.stream.waitForEnd(1500);
      expect(removed.stream.changed()).toBe(0);
      expect(signedOutEvents(removed.stream.text())).toEqual([{ reason: 'device' }]);
      // B's cache forgot the session too: the device is a guest there at once.
      expect((await removed.onB.get('/api/me')).status).toBe(401);
    });

    it('E7: sign out everywhere on A ends every stream of the person on B within a second with signed_out everywhere', async () => {
      const phone = uniquePhone();
      const first = await deviceStreamingOnB(phone);
      const second = await deviceStreamingOnB(phone);
      await pause();
      expect((await first.onA.post('/api/logout', { everywhere: true })).status).toBe(204);
      for (const device of [first, second]) {
        await device.stream.waitForEnd(1500);
        expect(device.stream.changed()).toBe(0);
        expect(signedOutEvents(device.stream.text())).toEqual([{ reason: 'everywhere' }]);
        expect((await device.onB.get('/api/me')).status).toBe(401);
      }
    });
  },
);
