import Dexie, { type Table } from 'dexie';
import { kindOfRequest } from '../../shared/protocol';
import type { LocalContact, LocalItem, LocalUser, MetaRow, QueueEntry } from './types';

export const DB_NAME = 'Outpost';
export const DB_VERSION = 2;

const STORES = {
  items: 'id, type, user_id, assigned_to, parent_id, status, _syncStatus, uuid, updated_at, _conflict',
  users: 'id',
  contacts: '++id, user_id, contact_phone',
  syncQueue: 'id, &seq, itemId, tag',
  meta: 'key',
};

/**
 * The Outpost IndexedDB database: items, users, contacts, syncQueue, meta. Version 2 keeps the stores
 * and gives every queued entry its `kind`, read once from its method and URL; no entry is dropped.
 */
export class OutpostDb extends Dexie {
  items!: Table<LocalItem, number>;
  users!: Table<LocalUser, number>;
  contacts!: Table<LocalContact, number>;
  syncQueue!: Table<QueueEntry, string>;
  meta!: Table<MetaRow, string>;

  constructor(name: string = DB_NAME, options?: ConstructorParameters<typeof Dexie>[1]) {
    super(name, options);
    // Null keys are not indexed by IndexedDB, so parent_id/assigned_to/uuid indexes hold only real refs.
    this.version(1).stores(STORES);
    this.version(DB_VERSION)
      .stores(STORES)
      .upgrade((tx) =>
        tx
          .table<QueueEntry, string>('syncQueue')
          .toCollection()
          .modify((entry) => {
            entry.kind ??= kindOfRequest(entry.method, entry.url);
          }),
      );
  }
}

export const META_KEYS = {
  cursor: 'cursor',
  lastSyncAt: 'lastSyncAt',
  guestCounter: 'guestCounter',
  tempCounter: 'tempCounter',
  account: 'account',
  dataOwner: 'dataOwner',
  upgrade: 'upgrade',
  idAliases: 'idAliases',
  predicted: 'predicted',
  mutuals: 'mutuals',
} as const;
export type MetaKey = (typeof META_KEYS)[keyof typeof META_KEYS];

/** Items open in a conflict dialog (indexed: null is not, so this reads only the conflicted ones). */
export function conflictedCollection(db: OutpostDb) {
  return db.items.where('_conflict').anyOf('update', 'delete');
}

/** Reads a meta value (inside the caller's transaction when there is one). */
export async function getMeta<T>(db: OutpostDb, key: MetaKey): Promise<T | undefined> {
  const row = await db.meta.get(key);
  return row?.value as T | undefined;
}

/** Writes a meta value (inside the caller's transaction when there is one). */
export async function setMeta(db: OutpostDb, key: MetaKey, value: unknown): Promise<void> {
  await db.meta.put({ key, value });
}

/** The next number of a counter kept in meta; call inside a rw transaction so tabs never share one. */
export async function nextCounter(db: OutpostDb, key: 'guestCounter' | 'tempCounter'): Promise<number> {
  const current = (await getMeta<number>(db, key)) ?? 0;
  const next = current + 1;
  await setMeta(db, key, next);
  return next;
}
