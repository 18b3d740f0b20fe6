/**
 * The store's parts of the client (ARCHITECTURE §6: each data folder declares its parts as
 * `{ name, needs, create }`; client.ts composes them, data/service.ts `composeParts`).
 */
import Dexie from 'dexie';
import { OutpostDb } from './db';
import { createStorageKeeper } from './storage';

/** The device's database (./db.ts), on the IndexedDB given (fake-indexeddb in Node) or the browser's. */
export const dbPart = {
  name: 'db',
  needs: ['dbName', 'idb'],
  create({
    dbName,
    idb,
  }: {
    dbName: string;
    idb: { indexedDB: IDBFactory; IDBKeyRange: typeof IDBKeyRange } | undefined;
  }): OutpostDb {
    if (idb && !Dexie.dependencies.indexedDB) {
      // liveQuery checks the global dependency before every run; without it (Node) it never fires.
      Dexie.dependencies.indexedDB = idb.indexedDB;
      Dexie.dependencies.IDBKeyRange = idb.IDBKeyRange;
    }
    return new OutpostDb(dbName, idb);
  },
} as const;

/** Asks the browser to keep the device's data once there is some (./storage.ts). */
export const storagePart = { name: 'storage', needs: [], create: () => createStorageKeeper() } as const;
