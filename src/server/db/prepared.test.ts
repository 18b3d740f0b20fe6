import { afterEach, describe, expect, it } from 'vitest';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { type Database, prepared, rows, sql } from './client';

describe.each(testEngines())('prepared statements (%s)', (engine) => {
  let database: Database | null = null;
  afterEach(async () => {
    await database?.close();
    database = null;
  });

  const fragment = (n: number) => sql`(${n} + 1)`;
  const statement = prepared(
    (a: number, b: string | null) =>
      sql`SELECT ${fragment(a)}::int AS one, ${b}::text AS two, ${fragment(a)}::int AS three, ${7}::int AS fixed`,
  );

  it('answers each call with its own arguments, also where one argument appears twice', async () => {
    database = await openTestDatabase(engine);
    expect(await rows(database.db, statement(1, 'x'))).toEqual([{ one: 2, two: 'x', three: 2, fixed: 7 }]);
    expect(await rows(database.db, statement(41, null))).toEqual([
      { one: 42, two: null, three: 42, fixed: 7 },
    ]);
    await database.db.transaction(async (tx) => {
      expect(await rows(tx, statement(9, 'y'))).toEqual([{ one: 10, two: 'y', three: 10, fixed: 7 }]);
    });
  });

  it('builds its text once and runs under one name, with the same text drizzle would build', () => {
    const first = statement(1, 'x');
    const second = statement(2, 'y');
    expect(second.sql).toBe(first.sql);
    expect(second.name).toBe(first.name);
    expect(second.params).toEqual([2, 'y', 2, 7]);
    // Any other executor can still run it: it rebuilds from the arguments.
    expect(second.getSQL().queryChunks.length).toBeGreaterThan(0);
  });
});
