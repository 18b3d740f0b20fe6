/**
 * The uploader (SYNC.md A2–A6, ARCHITECTURE §6 'Files offline'): one file at a time, beside the queue
 * and never inside it, so a queued title edit goes while a large file is on its way (A2). A file waits
 * until its item is on the server (A3: a temporary item id is retargeted with every child's); it names
 * its uuid, so a retry, a resumed upload or a second tab stores it once (A4). A network failure or a
 * 5xx is retried by the queue's rules (A5: the status policy of src/shared/protocol.ts decidePush and
 * its back-off), from the Blob after a reload too; an item lost to the device keeps the file with the
 * changes that could not be applied (A6), and any other refusal marks it failed with the server's
 * words. One tab uploads at a time (a Web Lock of its own, not the sync run's).
 */
import type { Attachment } from '../../../shared/attachments';
import { decidePush, MAX_RETRIES } from '../../../shared/protocol';
import type { ToastInput } from '../../stores/toastStore';
import type { ApiClient } from '../net/apiClient';
import type { OutpostDb } from '../store/db';
import type { AttachmentUpload, LocalAttachment, Viewer } from '../store/types';
import type { SyncLock } from '../sync/locks';
import { announceRejected, lostAccessVerdict } from '../sync/lostAccess';
import { confirmUpload, keepLostUpload, sweepFileStore, uploadRecord } from './localAttachments';
import type { FileAnswer, SendFile } from './transport';

/** Progress is written to the device at most this often (each write wakes the live reads). */
export const PROGRESS_EVERY_MS = 250;

export interface UploaderDeps {
  db: OutpostDb;
  /** The API client: a new anti-forgery token (419), and whether a lost item's campaign is still seen. */
  api: ApiClient;
  send: SendFile;
  viewer: () => Viewer;
  isOnline: () => boolean;
  lock: SyncLock;
  toast: (toast: ToastInput) => void;
  /** Saves the kept changes' file (the toast's 'Export them'). */
  download: (file: { name: string; mime: string; text: string }) => void;
  /** Starts the push of a queued write (a file removed while it was sent is deleted on the server). */
  pushNow?: (entryId: string) => Promise<unknown>;
  progressEveryMs?: number;
}

/** What sending one file came to. */
type Step = 'next' | 'stop';

const isAttachment = (data: unknown): data is Attachment =>
  typeof data === 'object' &&
  data !== null &&
  typeof (data as { id?: unknown }).id === 'number' &&
  typeof (data as { uuid?: unknown }).uuid === 'string';

function messageOf(answer: FileAnswer): string {
  const message = (answer.data as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : `The server answered ${answer.status}.`;
}

export type Uploader = ReturnType<typeof createUploader>;

export function createUploader(deps: UploaderDeps) {
  const { db } = deps;
  const progressEvery = deps.progressEveryMs ?? PROGRESS_EVERY_MS;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const canUpload = () => !stopped && !deps.viewer().isGuest && deps.isOnline();

  /** One try when a 429's pause ends; a trigger before then tries at once. */
  function later(ms: number): void {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      kick();
    }, ms);
  }

  async function setUpload(row: LocalAttachment, upload: AttachmentUpload): Promise<void> {
    // Only while the row is still the waiting one: a file removed meanwhile stays removed.
    await db.attachments
      .where('id')
      .equals(row.id)
      .modify((r) => {
        r._upload = upload;
      });
  }

  /** The next file whose turn it is: waiting (or left 'uploading' by a reload: A5), its item on the server. */
  async function nextWaiting(): Promise<LocalAttachment | null> {
    const rows = await db.attachments.where('id').below(0).toArray();
    const ready = rows
      .filter(
        (r) =>
          r._syncStatus === 'pending' && r._deleted === 0 && r.item_id > 0 && r._upload?.state !== 'failed',
      )
      .sort((a, b) => (a.created_at === b.created_at ? b.id - a.id : a.created_at < b.created_at ? -1 : 1));
    for (const row of ready) {
      const item = await db.items.get(row.item_id);
      // A3: on the server and not being deleted here (a delete under way takes its files with it).
      if (item && item._deleted === 0) return row;
    }
    return null;
  }

  /** A6: the item is gone or out of reach: the file is kept with the changes that could not be applied. */
  async function keepLost(row: LocalAttachment, answer: FileAnswer): Promise<Step> {
    let why: Parameters<typeof keepLostUpload>[2];
    if (answer.status === 403) why = { cause: 'role', campaign: null };
    else {
      const verdict = await lostAccessVerdict(db, deps.api, uploadRecord(row), answer.status, answer.data);
      // The server could not be asked whose the item is now: the file waits for the next try.
      if (verdict === 'unknown') {
        await setUpload(row, { state: 'waiting', retries: row._upload?.retries ?? 0 });
        return 'stop';
      }
      why = verdict ?? { cause: 'deleted', campaign: null };
    }
    await keepLostUpload(db, row, why);
    await announceRejected(db, deps.toast, deps.download).catch(() => undefined);
    return 'next';
  }

  async function uploadOne(row: LocalAttachment): Promise<Step> {
    const stored = await db.fileBlobs.get(row.uuid);
    if (!stored) {
      await setUpload(row, { state: 'failed', error: 'The file is no longer on this device.' });
      return 'next';
    }
    const retries = row._upload?.retries ?? 0;
    await setUpload(row, { state: 'uploading', loaded: 0, retries });
    let lastWrite = 0;
    const onProgress = (loaded: number) => {
      const now = Date.now();
      if (now - lastWrite < progressEvery) return;
      lastWrite = now;
      void setUpload(row, { state: 'uploading', loaded, retries }).catch(() => undefined);
    };
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await deps.send({
        path: `/api/items/${row.item_id}/attachments?uuid=${encodeURIComponent(row.uuid)}`,
        blob: stored.blob,
        name: row.name,
        uuid: row.uuid,
        onProgress,
      });
      if (answer.status >= 200 && answer.status < 300 && isAttachment(answer.data)) {
        const entry = await confirmUpload(db, row.uuid, answer.data);
        if (entry) void deps.pushNow?.(entry.id).catch(() => undefined);
        return 'next';
      }
      const decision = decidePush(answer.status, answer.status === 0, {
        kind: 'attachment_upload',
        retries,
        attempt,
        onServer: true,
        immediate: false,
      });
      switch (decision) {
        case 'renew-token':
          // The anti-forgery token went missing (a new session): fetch one and send again (Q4).
          await deps.api.csrfCookie().catch(() => undefined);
          continue;
        case 'network':
          // As a queued change (Q2): it waits, uncounted, for the next trigger (each sync run's end,
          // whose back-off follows the server's reach, P15; coming online).
          await setUpload(row, { state: 'waiting', retries });
          return 'stop';
        case 'rate-limited':
          await setUpload(row, { state: 'waiting', retries });
          later(Math.max(1, answer.retryAfter ?? 30) * 1000);
          return 'stop';
        case 'retry':
          // A5: a server failure counts a retry, as a queued change's does (Q7), and waits for the
          // next trigger, as the queue waits for its next run.
          await setUpload(row, { state: 'waiting', retries: retries + 1 });
          return 'stop';
        case 'drop-after-retries':
          // Never dropped (A6): failed with the server's words, and a Retry.
          await setUpload(row, { state: 'failed', error: messageOf(answer), retries: MAX_RETRIES });
          return 'next';
        case 'unauthorized':
        case 'hold':
          // The device turns guest (the transport told the auth store), or the token cannot be had.
          await setUpload(row, { state: 'waiting', retries });
          return 'stop';
        default:
          if (answer.status === 404 || answer.status === 403) return keepLost(row, answer);
          // 413, 422 and the like: the server's words, and a Retry (A6).
          await setUpload(row, { state: 'failed', error: messageOf(answer), retries });
          return 'next';
      }
    }
    await setUpload(row, { state: 'waiting', retries });
    return 'stop';
  }

  async function run(): Promise<void> {
    if (!canUpload()) return;
    await deps.lock.tryRun(async () => {
      await sweepFileStore(db, deps.viewer().userId);
      for (let row = await nextWaiting(); row && canUpload(); row = await nextWaiting()) {
        if ((await uploadOne(row)) === 'stop') break;
      }
    });
  }

  /** Starts a run (or one more after the run under way): a trigger, a file added, a Retry. */
  function kick(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = run()
      .catch(() => undefined)
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          kick();
        }
      });
  }

  return {
    kick,
    /** Resolves once no run is under way or asked for (tests wait on it; a later try is not waited for). */
    async settled(): Promise<void> {
      while (running) await running;
    },
    stop(): void {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
