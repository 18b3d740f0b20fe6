/**
 * The page side of `npm run bench -- index-cost` (bench/indexCost.ts), on `window.indexCost`: issue 49's
 * second reference for a fresh device's 10k pull. The reference is local-writes' figure A reference
 * (one GET of the account's sync pages concatenated, one raw readwrite transaction writing what the app
 * stores: bench/browser/localWrites.ts refGet and refWrite), into a database with the app's object
 * stores but no index on `items`: what every put would cost if no screen needed an index. The app's
 * pull and the reference with the app's indexes are local-writes' own (window.localWrites).
 */

import type { Item } from '../../src/shared/item';
import { OutpostDb, UNREAD_INDEXES_V15 } from '../lib/appData';
import { countedAndDropped, req } from './idb';
import { deleteDb, refGet, refWrite } from './localWrites';

type Schema = ReturnType<typeof schemaOf>;

/**
 * The app's object stores (db.ts) and indexes; `items` as told: 'bare' with no index, 'v14' with the
 * indexes version 15 deleted put back (the schema before issue 49), 'app' as declared now.
 */
function schemaOf(items: 'bare' | 'v14' | 'app', without: readonly string[] = []) {
  const probe = new OutpostDb('index-cost-schema-probe');
  const out = probe.tables.map((t) => ({
    name: t.name,
    keyPath: (t.schema.primKey.keyPath ?? null) as string | string[] | null,
    autoIncrement: !!t.schema.primKey.auto,
    indexes: [
      ...(t.name === 'items' && items === 'bare'
        ? []
        : t.schema.indexes.filter((i) => t.name !== 'items' || !without.includes(i.name))),
      ...(t.name === 'items' && items === 'v14' ? UNREAD_INDEXES_V15.map(unreadIndex) : []),
    ].map((i) => ({
      name: i.name,
      keyPath: i.keyPath as string | string[],
      unique: !!i.unique,
      multiEntry: !!i.multi,
    })),
  }));
  probe.close();
  return out;
}

/** An index version 15 deleted, as Dexie describes one (`[a+b]` is a compound key path). */
function unreadIndex(name: string) {
  const keyPath = name.startsWith('[') ? name.slice(1, -1).split('+') : name;
  return { name, keyPath, unique: false, multi: false };
}

const SCHEMAS = { bare: schemaOf('bare'), v14: schemaOf('v14'), app: schemaOf('app') };

function openWith(name: string, schema: Schema): Promise<IDBDatabase> {
  const open = indexedDB.open(name, 1);
  open.onupgradeneeded = () => {
    const db = open.result;
    for (const s of schema) {
      const store = db.createObjectStore(s.name, {
        ...(s.keyPath === null ? {} : { keyPath: s.keyPath }),
        autoIncrement: s.autoIncrement,
      });
      for (const i of s.indexes)
        store.createIndex(i.name, i.keyPath, { unique: i.unique, multiEntry: i.multiEntry });
    }
  };
  return req(open);
}

let pulled: { items: Item[]; cursor: string } | null = null;

const indexCost = {
  /** The items store's indexes as the app declares them (what the bare reference leaves out). */
  itemIndexes(): string[] {
    const probe = new OutpostDb('index-cost-schema-probe');
    const names = probe.tables.find((t) => t.name === 'items')!.schema.indexes.map((i) => i.name);
    probe.close();
    return names;
  },

  /** The reference without items indexes: one GET of the 10,000 items, one raw transaction writing what the app stores. */
  async barePull(run: number): Promise<{ ms: number; count: number }> {
    const name = `ic-bare-pull-${run}`;
    await deleteDb(name);
    const db = await openWith(name, SCHEMAS.bare);
    const t0 = performance.now();
    const { items, cursor } = await refGet();
    await refWrite(db, items, cursor);
    return countedAndDropped(db, name, t0);
  },
  /**
   * The reference's transaction alone (its GET read once before, untimed), into the items store as
   * `items` says: what the indexes cost the puts, with nothing else in the time.
   */
  async writeOnly(
    items: 'bare' | 'v14' | 'app' | 'without',
    run: number,
    without: string[] = [],
  ): Promise<{ ms: number; count: number }> {
    pulled ??= await refGet();
    const name = `ic-write-${items}-${run}`;
    await deleteDb(name);
    const db = await openWith(name, items === 'without' ? schemaOf('app', without) : SCHEMAS[items]);
    const t0 = performance.now();
    await refWrite(db, pulled.items, pulled.cursor);
    const ms = performance.now() - t0;
    const count = await req(db.transaction('items').objectStore('items').count());
    db.close();
    await deleteDb(name);
    return { ms, count };
  },
  /** How many entries each items index holds once the reference has written the 10,000 items. */
  async entries(): Promise<Record<string, number>> {
    pulled ??= await refGet();
    const name = 'ic-entries';
    await deleteDb(name);
    const db = await openWith(name, SCHEMAS.app);
    await refWrite(db, pulled.items, pulled.cursor);
    const store = db.transaction('items').objectStore('items');
    const out: Record<string, number> = {};
    for (const index of [...store.indexNames]) out[index] = await req(store.index(index).count());
    db.close();
    await deleteDb(name);
    return out;
  },
};

(window as unknown as { indexCost: typeof indexCost }).indexCost = indexCost;
