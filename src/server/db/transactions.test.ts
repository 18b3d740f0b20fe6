import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { type Database, inOrder, rows, sql } from './client';

// On PostgreSQL a transaction's BEGIN goes out with its first statement, and inOrder sends two
// statements at once (a pipelined connection): a transaction must stay one, whatever fails where.
describe.each(testEngines())('transactions (%s)', (engine) => {
  let database: Database | null = null;
  afterEach(async () => {
    await database?.close();
    database = null;
  });

  const open = async () => {
    database = await openTestDatabase(engine);
    await database.db.execute(sql`CREATE TABLE tx_probe_rows (n int PRIMARY KEY)`);
    return database;
  };
  const stored = async (db: Database) =>
    (await rows<{ n: number }>(db.db, sql`SELECT n FROM tx_probe_rows ORDER BY n`)).map((r) => r.n);

  it('undoes a transaction whose later statement fails: its first statement was inside it', async () => {
    const db = await open();
    await expect(
      db.db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO tx_probe_rows (n) VALUES (1)`);
        await tx.execute(sql`INSERT INTO tx_probe_rows (n) VALUES (1)`);
      }),
    ).rejects.toThrow();
    expect(await stored(db)).toEqual([]);
    // The connection is clean afterwards: the next transaction commits.
    await db.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO tx_probe_rows (n) VALUES (2)`);
    });
    expect(await stored(db)).toEqual([2]);
  });

  it('undoes a transaction whose first statement fails, and one that throws before any statement', async () => {
    const db = await open();
    await expect(
      db.db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO tx_probe_rows (n) VALUES (NULL)`);
      }),
    ).rejects.toThrow();
    await expect(
      db.db.transaction(async () => {
        throw new Error('refused before any statement');
      }),
    ).rejects.toThrow('refused before any statement');
    await db.db.transaction(async () => {});
    await db.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO tx_probe_rows (n) VALUES (3)`);
    });
    expect(await stored(db)).toEqual([3]);
  });

  it.runIf(engine === 'pg')(
    'rolls back at COMMIT when a statement sent just before it, not waited for, fails',
    async () => {
      // What the idempotency record relies on (http/idempotency.ts): it goes out with the COMMIT behind it.
      const db = await open();
      let last: Promise<unknown> | null = null;
      await db.db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO tx_probe_rows (n) VALUES (6)`);
        last = tx.execute(sql`INSERT INTO tx_probe_rows (n) VALUES (NULL)`);
        last.catch(() => undefined);
      });
      await expect(last).rejects.toThrow();
      expect(await stored(db)).toEqual([]);
    },
  );

  it.runIf(engine === 'pg')(
    "fails a transaction whose connection ended before its first statement, leaving no failure unhandled (the faults bench's PostgreSQL restart killed the process)",
    async () => {
      const db = await open();
      const unhandled: unknown[] = [];
      const listener = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', listener);
      try {
        await expect(
          db.db.transaction(async (tx) => {
            const client = (tx as unknown as { session: { client: pg.PoolClient & { processID: number } } })
              .session.client;
            const ended = new Promise((resolve) => client.once('end', resolve));
            await db.pool?.query('SELECT pg_terminate_backend($1)', [client.processID]);
            await ended;
            // BEGIN goes out with this statement, on a connection that is gone: both fail.
            await tx.execute(sql`INSERT INTO tx_probe_rows (n) VALUES (7)`);
          }),
        ).rejects.toThrow();
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(unhandled).toEqual([]);
      } finally {
        process.off('unhandledRejection', listener);
      }
      // The broken connection left the pool: the next transaction commits.
      await db.db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO tx_probe_rows (n) VALUES (8)`);
      });
      expect(await stored(db)).toEqual([8]);
    },
  );

  it('runs two statements sent together in order, the second seeing the first, and undoes both on a failure', async () => {
    const db = await open();
    const [, seen] = await db.db.transaction((tx) =>
      inOrder(
        tx,
        () => tx.execute(sql`INSERT INTO tx_probe_rows (n) VALUES (4)`),
        () => rows<{ n: number }>(tx, sql`SELECT n FROM tx_probe_rows`),
      ),
    );
    expect(seen).toEqual([{ n: 4 }]);
    await expect(
      db.db.transaction((tx) =>
        inOrder(
          tx,
          () => tx.execute(sql`INSERT INTO tx_probe_rows (n) VALUES (5)`),
          () => tx.execute(sql`INSERT INTO tx_probe_rows (n) VALUES (4)`),
        ),
      ),
    ).rejects.toThrow();
    expect(await stored(db)).toEqual([4]);
  });
});
