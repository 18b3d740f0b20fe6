import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../testkit/server';
import { TestClient, uniquePhone } from '../../../testkit/testClient';
import type { Item, SyncPage } from '../../shared/item';
import { rows, sql } from '../db/client';
import { decodeCursor } from './cursor';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const APP_WRITERS = 4;
const SLOW_WRITERS = 4;
const ROUNDS = 12;

// Real concurrency needs real connections: PGlite has one, so this proof runs on PostgreSQL only.
describe.skipIf(!process.env.TEST_DATABASE_URL)('sync cursor under concurrent writers (pg)', () => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  let phone: string;
  let readerId: number;
  beforeAll(async () => {
    harness = await createTestApp('pg');
    phone = uniquePhone();
    readerId = (await new TestClient(harness.app).login(phone, 'Reader')).id;
  });
  afterAll(() => harness?.close());

  /** Another session of the same user: writers and the reader each have their own. */
  const session = async () => {
    const client = new TestClient(harness.app);
    await client.login(phone, 'Reader');
    return client;
  };

  it('L1: skips no change while 8 connections commit out of order and a reader pulls in a loop', async () => {
    const pool = harness.database.pool as pg.Pool;
    const reader = await session();
    const campaign = await reader.create({ title: 'Busy campaign', type: 'campaign' });
    let writersDone = false;
    let openSlowTransactions = 0;
    let pullsDuringSlowTransactions = 0;

    // App writers: creates, edits and status changes (with roll-up) through the real routes.
    const appWriter = async (n: number) => {
      const client = await session();
      const own: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const item = await client.create({
          title: `app ${n}.${round}`,
          type: 'todo',
          ...(round % 2 === 0 ? { parent_id: campaign.id } : {}),
        });
        own.push(item.id);
        const target = own[(round * 7) % own.length] ?? item.id;
        const status = round % 3 === 0 ? 'completed' : 'in_progress';
        const response = await client.patch(`/api/items/${target}`, { description: `edit ${round}`, status });
        expect(response.status, response.text).toBe(200);
      }
    };

    // Slow writers: take a transaction id first, then hold the transaction open while others commit.
    const slowWriter = async (n: number) => {
      const connection = await pool.connect();
      try {
        for (let round = 0; round < ROUNDS; round += 1) {
          await connection.query('BEGIN');
          openSlowTransactions += 1;
          try {
            const inserted = await connection.query<{ id: number }>(
              'INSERT INTO items (title, type, user_id) VALUES ($1, $2, $3) RETURNING id',
              [`slow ${n}.${round}`, 'todo', readerId],
            );
            await connection.query('SELECT pg_sleep($1)', [0.02 + ((n * 31 + round * 17) % 120) / 1000]);
            await connection.query(
              `UPDATE items SET title = title || ' (edited)', version = version + 1,
                 updated_at = now(), change_xid = pg_current_xact_id()::text::bigint
               WHERE id = (SELECT id FROM items WHERE user_id = $1 AND id <> $2 ORDER BY random() LIMIT 1)`,
              [readerId, inserted.rows[0]?.id],
            );
            // As the app's write path does: announce inside the transaction, delivered on commit.
            await harness.app.changes.announce(drizzle(connection), [readerId]);
          } finally {
            await connection.query('COMMIT');
            openSlowTransactions -= 1;
            harness.app.changes.committed([readerId]);
          }
        }
      } finally {
        connection.release();
      }
    };

    const seen = new Map<number, number>();
    let cursor = '';
    let pulls = 0;
    const pull = async () => {
      let count = 0;
      for (;;) {
        const slowOpen = openSlowTransactions > 0;
        const response = await reader.get<SyncPage>(`/api/sync?cursor=${encodeURIComponent(cursor)}`);
        expect(response.status, response.text).toBe(200);
        pulls += 1;
        if (slowOpen) pullsDuringSlowTransactions += 1;
        count += response.body.items.length;
        for (const item of response.body.items as Item[]) {
          seen.set(item.id, Math.max(seen.get(item.id) ?? 0, item.version));
        }
        cursor = response.body.cursor;
        if (!response.body.has_more) return count;
      }
    };
    const readerLoop = async () => {
      while (!writersDone) {
        await pull();
        await sleep(3);
      }
    };

    const writers = Promise.all([
      ...Array.from({ length: APP_WRITERS }, (_, n) => appWriter(n)),
      ...Array.from({ length: SLOW_WRITERS }, (_, n) => slowWriter(n)),
    ]).finally(() => {
      writersDone = true;
    });
    await Promise.all([writers, readerLoop()]);

    // Drain until the cursor has reached the last transaction that wrote a row and a pull brings
    // nothing new: every writer has committed, so whatever is still missing was skipped for good.
    const [{ newest } = { newest: '0' }] = await rows<{ newest: string }>(
      harness.database.db,
      sql`SELECT max(change_xid)::text AS newest FROM items`,
    );
    for (let attempt = 0; ; attempt += 1) {
      expect(attempt, 'the cursor never reached the last write').toBeLessThan(200);
      const count = await pull();
      if (count === 0 && (decodeCursor(cursor)?.xid ?? 0n) >= BigInt(newest)) break;
      await sleep(5);
    }

    const latest = await rows<{ id: number; version: number }>(
      harness.database.db,
      sql`SELECT id, version FROM items WHERE user_id = ${readerId} ORDER BY id`,
    );
    expect(latest.length).toBe(1 + (APP_WRITERS + SLOW_WRITERS) * ROUNDS);
    const missed = latest.filter((row) => seen.get(row.id) !== row.version);
    expect(missed).toEqual([]);
    // The run really interleaved: the reader pulled while slow transactions held older ids open.
    expect(pullsDuringSlowTransactions).toBeGreaterThan(0);
    expect(pulls).toBeGreaterThan(5);
  });
});
