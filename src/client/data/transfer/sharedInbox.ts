/**
 * What a phone shared into Outpost (the manifest's share_target): the service worker
 * (public/share-sw.js) keeps each share in a small IndexedDB database of its own, never the app's
 * Dexie schema, and opens the app at /?share=<id>. This reads and drops those records; the names
 * below are the worker's (a unit test holds them equal).
 */

export const SHARE_DB_NAME = 'outpost-share';
export const SHARE_STORE = 'shares';
export const SHARE_DB_VERSION = 1;

/** A file as the worker kept it. */
export interface SharedFile {
  name: string;
  type: string;
  size: number;
  blob: Blob;
}

/** One share as the worker kept it. */
export interface SharedRecord {
  id: string;
  title: string;
  text: string;
  url: string;
  files: SharedFile[];
  created_at: string;
}

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(SHARE_DB_NAME, SHARE_DB_VERSION);
    // The page may open it before the worker ever stored a share: the same store the worker makes.
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(SHARE_STORE))
        request.result.createObjectStore(SHARE_STORE, { keyPath: 'id' });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function run<T>(
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => IDBRequest<T> | undefined,
): Promise<T | undefined> {
  if (typeof indexedDB === 'undefined') return undefined;
  const db = await open();
  try {
    return await new Promise<T | undefined>((resolve, reject) => {
      const tx = db.transaction(SHARE_STORE, mode);
      const request = work(tx.objectStore(SHARE_STORE));
      tx.oncomplete = () => resolve(request?.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

/** A stored file whose bytes are a Blob (by its shape: a Blob read back may be another realm's). */
function isSharedFile(f: unknown): f is SharedFile {
  const blob = (f as Partial<SharedFile> | null)?.blob as Partial<Blob> | undefined;
  return (
    typeof blob === 'object' &&
    blob !== null &&
    typeof blob.arrayBuffer === 'function' &&
    typeof blob.size === 'number'
  );
}

/** A string field of a stored record, '' when the record lacks it. */
const textOf = (value: unknown) => (typeof value === 'string' ? value : '');

/** The share `id`, or null when there is none (already used, dropped after a day, another browser). */
export async function readShared(id: string): Promise<SharedRecord | null> {
  const found = (await run('readonly', (store) => store.get(id))) as Partial<SharedRecord> | undefined;
  if (!found || typeof found !== 'object') return null;
  const files = Array.isArray(found.files) ? found.files.filter(isSharedFile) : [];
  return {
    id,
    title: textOf(found.title),
    text: textOf(found.text),
    url: textOf(found.url),
    files: files.map((f) => ({
      name: textOf(f.name) || 'shared-file',
      type: textOf(f.type),
      size: f.blob.size,
      blob: f.blob,
    })),
    created_at: textOf(found.created_at),
  };
}

/** Drops the share `id` (its item was created, or it was put aside). */
export async function dropShared(id: string): Promise<void> {
  await run('readwrite', (store) => {
    store.delete(id);
    return undefined;
  });
}

/** A shared file as a File the attachment store takes (name and type as shared). */
export function sharedFileOf(file: SharedFile): File {
  return file.blob instanceof File && file.blob.name === file.name && file.blob.type === file.type
    ? file.blob
    : new File([file.blob], file.name, { type: file.type || file.blob.type });
}
