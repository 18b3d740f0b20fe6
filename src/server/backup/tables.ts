import { type Executor, rows, sql } from '../db/client';

/** One table of the application's schema as a backup sees it. */
export interface TableShape {
  name: string;
  columns: string[];
  /** Its primary key's columns, the order rows are written in. */
  key: string[];
  /** A column referring to this same table (items.parent_id): rows go parents first. */
  selfRef: { column: string; references: string } | null;
  /** Columns filled from a sequence (serial or identity), with the sequence's name. */
  sequences: { column: string; sequence: string }[];
}

/**
 * Columns stamped with the writing transaction's id (SYNC.md's cursors are built on them): a
 * restore lets the target stamp them afresh with its own id, since the source's ids mean nothing to
 * another database and ids above the target's counter would hide rows from every pull.
 */
export const TRANSACTION_STAMPS = new Set(['change_xid']);

/**
 * The tables of the `public` schema in an order that respects every foreign key (referenced tables
 * first), with what a backup and a restore need to know of each. The migrations' own bookkeeping
 * (schema `drizzle`) is not data: the target is migrated by the code that restores into it.
 */
export async function tableShapes(db: Executor): Promise<TableShape[]> {
  const columns = await rows<{ table_name: string; column_name: string }>(
    db,
    sql`SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name IN (
          SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE')
        ORDER BY table_name, ordinal_position`,
  );
  const keys = await rows<{ table_name: string; column_name: string }>(
    db,
    sql`SELECT c.relname AS table_name, a.attname AS column_name
        FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace
        CROSS JOIN LATERAL unnest(k.conkey) WITH ORDINALITY AS u(attnum, pos)
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = u.attnum
        WHERE n.nspname = 'public' AND k.contype = 'p'
        ORDER BY c.relname, u.pos`,
  );
  const foreign = await rows<{
    from_table: string;
    to_table: string;
    from_column: string;
    to_column: string;
  }>(
    db,
    sql`SELECT c.relname AS from_table, r.relname AS to_table,
          (SELECT attname FROM pg_attribute WHERE attrelid = c.oid AND attnum = k.conkey[1]) AS from_column,
          (SELECT attname FROM pg_attribute WHERE attrelid = r.oid AND attnum = k.confkey[1]) AS to_column
        FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class r ON r.oid = k.confrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND k.contype = 'f'`,
  );
  const sequences = await rows<{ table_name: string; column_name: string; sequence: string | null }>(
    db,
    sql`SELECT table_name, column_name,
          pg_get_serial_sequence(quote_ident(table_name), column_name) AS sequence
        FROM information_schema.columns
        WHERE table_schema = 'public' AND (column_default LIKE 'nextval(%' OR is_identity = 'YES')`,
  );

  const shapes = new Map<string, TableShape>();
  for (const { table_name, column_name } of columns) {
    const shape = shapes.get(table_name) ?? {
      name: table_name,
      columns: [],
      key: [],
      selfRef: null,
      sequences: [],
    };
    shape.columns.push(column_name);
    shapes.set(table_name, shape);
  }
  for (const { table_name, column_name } of keys) shapes.get(table_name)?.key.push(column_name);
  for (const s of sequences) {
    if (s.sequence) shapes.get(s.table_name)?.sequences.push({ column: s.column_name, sequence: s.sequence });
  }
  const needs = new Map<string, Set<string>>([...shapes.keys()].map((name) => [name, new Set<string>()]));
  for (const f of foreign) {
    if (f.from_table === f.to_table) {
      const shape = shapes.get(f.from_table);
      if (shape) shape.selfRef = { column: f.from_column, references: f.to_column };
    } else needs.get(f.from_table)?.add(f.to_table);
  }
  // Referenced tables first; ties by name, so two databases of one schema list them alike.
  const ordered: TableShape[] = [];
  const done = new Set<string>();
  while (done.size < shapes.size) {
    const ready = [...shapes.keys()]
      .filter((name) => !done.has(name) && [...needs.get(name)!].every((n) => done.has(n)))
      .sort();
    if (ready.length === 0) {
      throw new Error(
        `The schema's foreign keys form a cycle among: ${[...shapes.keys()].filter((n) => !done.has(n)).join(', ')}`,
      );
    }
    for (const name of ready) {
      done.add(name);
      ordered.push(shapes.get(name)!);
    }
  }
  return ordered;
}

/** A quoted SQL identifier. */
export const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
