// Share target for Outpost, loaded into the service worker vite-plugin-pwa generates
// (workbox.importScripts in vite.config.ts; the manifest's share_target names POST /share). A phone's
// share sheet posts multipart form data here; the worker keeps what was shared in a small IndexedDB
// database of its own ('outpost-share': the app's Dexie schema may change under a worker that lives
// longer than a page) and sends the app to /?share=<id>, where quick add opens with it
// (src/client/data/transfer/sharedInbox.ts reads it). Before any worker runs (a first visit) the
// server answers the same POST with a redirect that asks to share again (src/server/share/routes.ts).
(() => {
  const DB_NAME = 'outpost-share';
  const STORE = 'shares';
  const DB_VERSION = 1;
  /** What a title, text or url keeps of what a sharing app sends: more is no quick add. */
  const TEXT_MAX = 20000;
  /** A share nobody finished in a day is dropped when the next one arrives. */
  const KEEP_MS = 24 * 60 * 60 * 1000;

  /** A form field as trimmed text ('' when absent or a file). */
  function textOf(form, name) {
    const value = form.get(name);
    return typeof value === 'string' ? value.trim().slice(0, TEXT_MAX) : '';
  }

  /**
   * The shared form as the record the app reads: title, text and url as text, and each shared file
   * (the `files` fields; an empty file field, which a form without files may send, is none) as
   * {name, type, size, blob}.
   */
  function readShare(form, id, now) {
    const files = [];
    for (const value of form.getAll('files')) {
      if (typeof value === 'string' || value === null || typeof value !== 'object') continue;
      if (typeof value.size !== 'number') continue;
      const name = typeof value.name === 'string' ? value.name : '';
      if (value.size === 0 && name === '') continue;
      files.push({
        name: name || 'shared-file',
        type: typeof value.type === 'string' ? value.type : '',
        size: value.size,
        blob: value,
      });
    }
    return {
      id,
      title: textOf(form, 'title'),
      text: textOf(form, 'text'),
      url: textOf(form, 'url'),
      files,
      created_at: now.toISOString(),
    };
  }

  function open() {
    return new Promise((resolve, reject) => {
      const request = indexedDB.open(DB_NAME, DB_VERSION);
      request.onupgradeneeded = () => {
        if (!request.result.objectStoreNames.contains(STORE))
          request.result.createObjectStore(STORE, { keyPath: 'id' });
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }

  /** Stores `record` and drops shares older than KEEP_MS, in one transaction. */
  async function keep(record, now) {
    const db = await open();
    try {
      await new Promise((resolve, reject) => {
        const tx = db.transaction(STORE, 'readwrite');
        const store = tx.objectStore(STORE);
        const all = store.getAll();
        all.onsuccess = () => {
          for (const old of all.result) {
            const at = Date.parse(old.created_at);
            if (!(at > now.getTime() - KEEP_MS)) store.delete(old.id);
          }
          store.put(record);
        };
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
        tx.onabort = () => reject(tx.error);
      });
    } finally {
      db.close();
    }
  }

  const home = (query) => new URL(`/?share=${query}`, self.location.origin).href;

  async function takeShare(request) {
    try {
      const form = await request.formData();
      const now = new Date();
      const record = readShare(form, crypto.randomUUID(), now);
      await keep(record, now);
      // 303: the browser follows with a GET, so a reload of the app never posts the share again.
      return Response.redirect(home(record.id), 303);
    } catch {
      // Unreadable form or no storage: the app says the share did not arrive.
      return Response.redirect(home('failed'), 303);
    }
  }

  self.addEventListener('fetch', (event) => {
    const request = event.request;
    if (request.method !== 'POST') return;
    const url = new URL(request.url);
    if (url.origin !== self.location.origin || url.pathname !== '/share') return;
    event.respondWith(takeShare(request));
  });

  // For the unit test of the pure part (src/client/data/transfer/shareWorker.test.ts).
  self.outpostShare = { DB_NAME, STORE, DB_VERSION, readShare };
})();
