import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { OutpostDb } from '../../src/client/data/store/db';

let counter = 0;
const open: OutpostDb[] = [];
const stops: (() => void)[] = [];

/** A fresh OutpostDb on its own in-memory IndexedDB (fake-indexeddb), closed by `closeFakeDbs`. */
export function freshFakeDb(prefix = 'test'): OutpostDb {
  const indexedDB = new IDBFactory();
  if (!Dexie.dependencies.indexedDB) {
    Dexie.dependencies.indexedDB = indexedDB;
    Dexie.dependencies.IDBKeyRange = IDBKeyRange;
  }
  const db = new OutpostDb(`${prefix}-${++counter}`, { indexedDB, IDBKeyRange });
  open.push(db);
  return db;
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
