import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { OutpostDb } from '../../src/client/data/store/db';

let counter = 0;
const open: OutpostDb[] = [];
const stops: (() => void)[] = [];
const factories = new WeakMap<Dexie, IDBFactory>();

/** A fresh OutpostDb on its own in-memory IndexedDB (fake-indexeddb), closed by `closeFakeDbs`. */
export function freshFakeDb(prefix = 'test'): OutpostDb {
  const indexedDB = new IDBFactory();
  if (!Dexie.dependencies.indexedDB) {
    Dexie.dependencies.indexedDB = indexedDB;
    Dexie.dependencies.IDBKeyRange = IDBKeyRange;
  }
  const db = new OutpostDb(`${prefix}-${++counter}`, { indexedDB, IDBKeyRange });
  factories.set(db, indexedDB);
  open.push(db);
  return db;
}

/** Another connection to `db`'s database (another tab's), on the same in-memory IndexedDB; the caller closes it. */
export function anotherConnection(db: OutpostDb): OutpostDb {
  const indexedDB = factories.get(db);
  if (!indexedDB) throw new Error('anotherConnection: not a database freshFakeDb opened');
  return new OutpostDb(db.name, { indexedDB, IDBKeyRange });
}

/** Runs `stop` at the next closeFakeDbs (a watcher or a search started on a fresh database). */
export function stopLater(stop: () => void): void {
  stops.push(stop);
}

/** Stops what stopLater was given and closes every database freshFakeDb opened (an afterEach). */
export function closeFakeDbs(): void {
  for (const stop of stops.splice(0)) stop();
  for (const db of open.splice(0)) db.close();
}
