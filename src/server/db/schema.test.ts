import { getTableColumns } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { type FieldColumn, ITEM_FIELD_NAMES, ITEM_FIELDS } from '../../shared/itemFields';
import { type Database, rows, sql } from './client';
import { items } from './schema';

/** The PostgreSQL type a descriptor's column kind is stored as (information_schema's data_type). */
const STORED_AS: Record<FieldColumn, (type: string) => boolean> = {
  plain: (type) => !['date', 'timestamp with time zone', 'ARRAY'].includes(type),
  date: (type) => type === 'date',
  instant: (type) => type === 'timestamp with time zone',
  textArray: (type) => type === 'ARRAY',
};
/** Drizzle's column class for each kind (the mirror in ./schema.ts). */
const DRIZZLE_AS: Record<FieldColumn, (type: string) => boolean> = {
  plain: (type) => !['PgDateString', 'PgTimestamp', 'PgArray'].includes(type),
  date: (type) => type === 'PgDateString',
  instant: (type) => type === 'PgTimestamp',
  textArray: (type) => type === 'PgArray',
};

describe('the items table and the declared fields', () => {
  it('D9: the drizzle mirror has a column for every declared field, of its kind, null only where the default is none', () => {
    const columns = getTableColumns(items) as Record<string, { columnType: string; notNull: boolean }>;
    for (const field of ITEM_FIELD_NAMES) {
      const column = columns[field];
      expect(column, field).toBeDefined();
      expect(
        DRIZZLE_AS[ITEM_FIELDS[field].column](column!.columnType),
        `${field}: ${column!.columnType}`,
      ).toBe(true);
      expect(column!.notNull, field).toBe(ITEM_FIELDS[field].default !== null);
    }
  });

  describe.each(testEngines())('after the migrations (%s)', (engine) => {
    let database: Database;
    beforeAll(async () => {
      database = await openTestDatabase(engine);
    });
    afterAll(() => database?.close());

    it('D9: the migrated table has a column for every declared field, of its kind, null only where the default is none', async () => {
      const found = await rows<{ column_name: string; data_type: string; is_nullable: 'YES' | 'NO' }>(
        database.db,
        sql`SELECT column_name, data_type, is_nullable FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = 'items'`,
      );
      const byName = new Map(found.map((c) => [c.column_name, c]));
      for (const field of ITEM_FIELD_NAMES) {
        const column = byName.get(field);
        expect(column, field).toBeDefined();
        expect(
          STORED_AS[ITEM_FIELDS[field].column](column!.data_type),
          `${field}: ${column!.data_type}`,
        ).toBe(true);
        expect(column!.is_nullable, field).toBe(ITEM_FIELDS[field].default === null ? 'YES' : 'NO');
      }
    });
  });
});
