/**
 * Export and import on the device (ARCHITECTURE §5), loaded on first use so papaparse and the parsers
 * stay out of the first screen. Export reads IndexedDB (offline, as a guest); import creates through
 * the repository, the normal write path, so imported items sync like anything else. An export with
 * files is a zip (shared/exportZip.ts): a file waiting to upload gives its bytes from the device's file
 * store, an uploaded one from the server; one it cannot read is listed and the export goes on.
 */
import { bodyText } from '../../../shared/comments';
import {
  createExportZip,
  exportFilePath,
  IMPORT_ZIP_MAX_BYTES,
  isZip,
  readExportZip,
  zipEntryBytes,
} from '../../../shared/exportZip';
import {
  type ExportAttachment,
  type ExportComment,
  type ExportMember,
  type ExportSource,
  type ExportTimeEntry,
  exportCsv,
  exportDocument,
  exportFileName,
  type ImportAttachment,
  type ImportItem,
  type ImportPlan,
  importCreateFields,
  importFileProblem,
  importTimeSummary,
  parseImport,
} from '../../../shared/importExport';
import type { UserSummary } from '../../../shared/item';
import { parseRecurrence } from '../../../shared/recurrenceRule';
import { deviceTimeZone } from '../../../shared/timeZone';
import { addFiles } from '../attachments/localAttachments';
import { createComment } from '../comments/localComments';
import type { StoredMutuals } from '../contacts/mutuals';
import type { ItemsRepository } from '../items/itemsRepository';
import { getMeta, META_KEYS, type OutpostDb } from '../store/db';
import type { LocalAttachment, LocalItem, Viewer } from '../store/types';
import { holdImportUpload } from '../sync/guestUpgrade';
import { addManualEntry } from '../timeEntries/localTimeEntries';

export interface DataTransferDeps {
  db: OutpostDb;
  viewer: () => Viewer & { user: UserSummary };
  items: ItemsRepository;
  /** Starts one sync run: an import's creates, queued without being sent, go up in it (P19). */
  syncSoon?: () => unknown;
  /**
   * A campaign's people as the server lists them (GET /api/campaigns/{id}/members), or null when they
   * cannot be read now (a guest, offline, a campaign the server does not have yet): the device keeps
   * no members, so an export carries them only when it can ask.
   */
  members?: (campaignId: number) => Promise<ExportMember[] | null>;
  /**
   * An uploaded file's bytes from the server (its `url`), or null when they cannot be read now (a
   * guest, offline, refused): an export lists such a file without its bytes and says so.
   */
  fileBytes?: (url: string) => Promise<Blob | null>;
  /** Starts the uploader once an import has stored files (data/attachments/part.ts). */
  uploads?: { kick: () => void };
}

/** The undo step an import makes, one for all its items: the toast and Ctrl/Cmd+Z say 'Undo import'. */
export const IMPORT_UNDO_LABEL = 'Import';

/** A file an export lists without its bytes, and why. */
export interface MissingFile {
  name: string;
  /** The title of the item it is on. */
  item: string;
  reason: string;
}

export interface ExportFile {
  name: string;
  mime: string;
  /** The file's text; of a zip export, the outpost.json inside it. */
  text: string;
  /** The bytes to save when they are not `text` (a zip export with files). */
  blob?: Blob;
  /** Files the export lists whose bytes it could not include (offline, not on this device). */
  missing?: MissingFile[];
}

/** An import as it will run: the plan, and how many of its items this device already has. */
export interface ImportPreview extends ImportPlan {
  fileName: string;
  /** Items of the file already here (same uuid): they are skipped, never doubled. */
  existing: number;
  /** Comments of the file this device does not have yet: the import writes them, as the importer's. */
  newComments: number;
  /** T3: the importer's time entries of the file this device does not have yet, and their minutes. */
  newTimeEntries: number;
  newTimeMinutes: number;
  /** Files of a zip export the import attaches again (as new uploads) to items that lack them. */
  newFiles: number;
  /** The zip the files' bytes are read from when the import runs; null for a file without them. */
  zip: Blob | null;
}

export interface ImportResult {
  created: number;
  skipped: number;
  /** Comments restored (written by the importer; one by someone else names them, ImportComment). */
  comments: number;
  /** The importer's time entries restored (T3). */
  timeEntries: number;
  /** Files attached again from a zip export. */
  files: number;
  failed: { title: string; reason: string }[];
}

/** The device's live items of the viewer's scope (the guest's own, or the account's). */
async function scopeItems(db: OutpostDb, viewer: Viewer): Promise<LocalItem[]> {
  const all = await db.items.toArray();
  return all.filter(
    (i) => i._deleted === 0 && (viewer.isGuest ? i._syncStatus === 'local' : i._syncStatus !== 'local'),
  );
}

/** The users the server seeds (ARCHITECTURE §5 'Assignees', as src/client/items/assignees.ts names them). */
const SAMPLE_PEOPLE: readonly { id: number; name: string }[] = [
  { id: 1, name: 'Alex Morgan' },
  { id: 2, name: 'Sam Rivera' },
  { id: 3, name: 'Jordan Lee' },
  { id: 4, name: 'Taylor Kim' },
];

/** Hex sha256 of `bytes`, or null where the browser offers no digest (a page not served securely). */
async function sha256Hex(bytes: Uint8Array): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const digest = new Uint8Array(await subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What the device stores for the viewer, and whether the browser promised to keep it. */
export interface StorageInfo {
  items: number;
  /** Bytes used by this origin (navigator.storage.estimate), when the browser tells. */
  bytes: number | null;
  /** true: kept; false: may be cleared by the browser; null: the browser does not say. */
  persisted: boolean | null;
}

export function createDataTransfer(deps: DataTransferDeps) {
  const { db } = deps;

  /**
   * Outpost JSON or CSV of everything on the device for this viewer; no network needed. Outpost JSON
   * of items with files is a zip of the document and the files' bytes (shared/exportZip.ts): those
   * waiting to upload from the device, the others from the server when it can be asked; a file it
   * cannot read is listed without its bytes (`path` null) and named in `missing`.
   */
  async function exportFile(format: 'json' | 'csv', now = new Date()): Promise<ExportFile> {
    const viewer = deps.viewer();
    const local = await scopeItems(db, viewer);
    const names = await peopleNames();
    const comments = format === 'json' ? await commentsOf(local) : new Map<string, ExportComment[]>();
    const members = format === 'json' ? await membersOf(local) : new Map<number, ExportMember[]>();
    const times = format === 'json' ? await timeEntriesOf(local) : new Map<number, ExportTimeEntry[]>();
    const files = format === 'json' ? await attachmentsOf(local) : [];
    const items = (packed: Map<number, ExportSource['attachments']>) =>
      local.map(
        (i): ExportSource => ({
          ...i,
          assignee_name:
            i.assigned_to === null ? null : (i.assignedUser?.name ?? names.get(i.assigned_to) ?? null),
          comments: comments.get(i.uuid ?? `#${i.id}`) ?? [],
          time_entries: times.get(i.id) ?? [],
          attachments: packed.get(i.id) ?? [],
          ...(members.has(i.id) ? { members: members.get(i.id) } : {}),
        }),
      );
    if (format === 'csv')
      return {
        name: exportFileName(now, 'csv'),
        mime: 'text/csv',
        text: `\uFEFF${exportCsv(items(new Map()))}`,
      };
    const user = viewer.isGuest ? null : { id: viewer.user.id, name: viewer.user.name };
    if (files.length === 0) {
      const doc = exportDocument(items(new Map()), user, now);
      return {
        name: exportFileName(now, 'json'),
        mime: 'application/json',
        text: JSON.stringify(doc, null, 2),
      };
    }
    const chunks: Uint8Array[] = [];
    const zip = createExportZip((chunk) => chunks.push(chunk), now);
    const packed = new Map<number, (ExportAttachment & { created_at: string })[]>();
    const missing: MissingFile[] = [];
    const titles = new Map(local.map((i) => [i.id, i.title]));
    // One file at a time: never every file's bytes in flight at once.
    for (const row of files) {
      const read = await bytesOf(row);
      const bytes = 'bytes' in read ? read.bytes : null;
      const path = bytes ? exportFilePath(row.uuid, row.name) : null;
      if (bytes && path) zip.addFile(path, bytes);
      else
        missing.push({
          name: row.name,
          item: titles.get(row.item_id) ?? '',
          reason: 'reason' in read ? read.reason : '',
        });
      const list = packed.get(row.item_id) ?? [];
      list.push({
        uuid: row.uuid,
        name: row.name,
        type: row.type,
        size: bytes ? bytes.length : row.size,
        // A file not uploaded yet has no server's sha256: the export reads it from the bytes it carries.
        sha256: row.sha256 !== '' ? row.sha256 : bytes ? await sha256Hex(bytes) : null,
        path,
        created_at: row.created_at,
      });
      packed.set(row.item_id, list);
    }
    const text = JSON.stringify(exportDocument(items(packed), user, now), null, 2);
    zip.end(text);
    return {
      name: exportFileName(now, 'zip'),
      mime: 'application/zip',
      text,
      blob: new Blob(chunks as BlobPart[], { type: 'application/zip' }),
      missing,
    };
  }

  /** The live files of `items` on the device, by item and then as attached (oldest first). */
  async function attachmentsOf(items: readonly LocalItem[]): Promise<LocalAttachment[]> {
    if (items.length === 0) return [];
    const rows = await db.attachments
      .where('item_id')
      .anyOf(items.map((i) => i.id))
      .toArray();
    return rows
      .filter((r) => r._deleted !== 1)
      .sort(
        (a, b) =>
          a.item_id - b.item_id || a.created_at.localeCompare(b.created_at) || a.uuid.localeCompare(b.uuid),
      );
  }

  /** A file's bytes: from the device's file store while it waits to upload, else from the server. */
  async function bytesOf(row: LocalAttachment): Promise<{ bytes: Uint8Array } | { reason: string }> {
    const kept = await db.fileBlobs.get(row.uuid);
    if (kept) return { bytes: new Uint8Array(await kept.blob.arrayBuffer()) };
    if (row.url === '') return { reason: 'Its bytes are not on this device.' };
    const blob = deps.fileBytes ? await deps.fileBytes(row.url).catch(() => null) : null;
    if (!blob) return { reason: 'It is on the server, which could not be reached.' };
    return { bytes: new Uint8Array(await blob.arrayBuffer()) };
  }

  /** Everyone this device can name: itself, its known users, its mutuals and the sample users. */
  async function people(): Promise<{ id: number; name: string }[]> {
    const viewer = deps.viewer();
    const stored = viewer.isGuest ? undefined : await getMeta<StoredMutuals>(db, META_KEYS.mutuals);
    const own = stored && stored.userId === viewer.user.id ? [...stored.list, ...(stored.samples ?? [])] : [];
    const known = await db.users.toArray();
    return [
      ...(viewer.isGuest ? [] : [{ id: viewer.user.id, name: viewer.user.name }]),
      ...own.map((p) => ({ id: p.id, name: p.name })),
      ...known.map((p) => ({ id: p.id, name: p.name })),
      ...SAMPLE_PEOPLE,
    ];
  }

  async function peopleNames(): Promise<Map<number, string>> {
    const names = new Map<number, string>();
    for (const p of await people()) if (!names.has(p.id)) names.set(p.id, p.name);
    return names;
  }

  /** The live comments of `items` by item uuid, as an export writes them (mentions by name). */
  async function commentsOf(items: readonly LocalItem[]): Promise<Map<string, ExportComment[]>> {
    const keys = items.map((i) => i.uuid ?? `#${i.id}`);
    const rows = await db.comments.where('item_uuid').anyOf(keys).toArray();
    const out = new Map<string, ExportComment[]>();
    for (const c of rows) {
      if (c._deleted === 1) continue;
      const list = out.get(c.item_uuid) ?? [];
      list.push({
        uuid: c.uuid,
        author: c.user.name,
        body: bodyText(c.body, c.mentions),
        created_at: c.created_at,
      });
      out.set(c.item_uuid, list);
    }
    return out;
  }

  /** T3: the live time entries of `items` by item id, as an export writes them (authors by name). */
  async function timeEntriesOf(items: readonly LocalItem[]): Promise<Map<number, ExportTimeEntry[]>> {
    const rows = await db.timeEntries
      .where('item_id')
      .anyOf(items.map((i) => i.id))
      .toArray();
    const out = new Map<number, ExportTimeEntry[]>();
    for (const e of rows) {
      if (e._deleted === 1) continue;
      const list = out.get(e.item_id) ?? [];
      list.push({
        uuid: e.uuid,
        author: e.user_name,
        started_at: e.started_at,
        ended_at: e.ended_at,
        note: e.note,
      });
      out.set(e.item_id, list);
    }
    return out;
  }

  /** The members of the campaigns the server has, when it can be asked now (deps.members). */
  async function membersOf(items: readonly LocalItem[]): Promise<Map<number, ExportMember[]>> {
    const out = new Map<number, ExportMember[]>();
    const ask = deps.members;
    if (!ask || deps.viewer().isGuest) return out;
    const campaigns = items.filter((i) => i.type === 'campaign' && i.id > 0);
    const read = await Promise.all(campaigns.map((c) => ask(c.id).catch(() => null)));
    campaigns.forEach((c, n) => {
      const list = read[n];
      if (list) out.set(c.id, list);
    });
    return out;
  }

  /**
   * Reads a picked file into what it will create; bad files get a clear `error` and create nothing. An
   * Outpost zip export is read for its outpost.json; its files come back when the import runs.
   */
  async function planImport(file: {
    name: string;
    size: number;
    text: () => Promise<string>;
    slice?: (a: number, b: number) => Blob;
  }): Promise<ImportPreview> {
    const head = file.slice ? new Uint8Array(await file.slice(0, 4096).arrayBuffer()) : new Uint8Array();
    const zipped =
      isZip(head) && file.slice ? await readZip(file.name, file.size, file.slice(0, file.size)) : null;
    const problem = zipped
      ? zipped.error
      : importFileProblem({ name: file.name, size: file.size, bytes: head });
    const empty: ImportPreview = {
      source: null,
      items: [],
      counts: { campaign: 0, task: 0, todo: 0 },
      comments: [],
      time_entries: [],
      attachments: [],
      problems: [],
      warnings: [],
      lines: [],
      error: problem,
      fileName: file.name,
      existing: 0,
      newComments: 0,
      newTimeEntries: 0,
      newTimeMinutes: 0,
      newFiles: 0,
      zip: null,
    };
    if (problem) return empty;
    const parsed = parseImport(zipped?.json ?? (await file.text()), {
      fileName: file.name,
      userId: deps.viewer().userId,
      // Todoist's dates in words count from now, where this device is.
      now: new Date(),
      timeZone: deviceTimeZone(),
      people: await people(),
    });
    const plan = await fitForDevice(withFileBytes(parsed, zipped?.entries ?? null));
    const known = await knownUuids(plan.items);
    const fresh = plan.items.filter((i) => !known.has(i.uuid));
    const counts = { campaign: 0, task: 0, todo: 0 };
    for (const item of fresh) counts[item.type] += 1;
    const here = await knownComments(plan);
    const timesHere = await knownTimeEntries(plan);
    const newTimes = importTimeSummary(plan.time_entries.filter((e) => !timesHere.has(e.uuid)));
    const filesHere = await knownFiles(plan.attachments);
    return {
      ...plan,
      counts,
      fileName: file.name,
      existing: plan.items.length - fresh.length,
      newComments: plan.comments.filter((c) => !here.has(c.uuid)).length,
      newTimeEntries: newTimes.count,
      newTimeMinutes: newTimes.minutes,
      newFiles: plan.attachments.filter((f) => !filesHere.has(f.uuid)).length,
      zip: zipped?.blob ?? null,
    };
  }

  /** An Outpost zip export's document and entries, or why it cannot be imported. */
  async function readZip(
    name: string,
    size: number,
    blob: Blob,
  ): Promise<{ error: string | null; json: string | null; entries: Map<string, number>; blob: Blob }> {
    const none = { json: null, entries: new Map<string, number>(), blob };
    if (size > IMPORT_ZIP_MAX_BYTES)
      return { ...none, error: `“${name}” is too large: a zip import is at most 1 GB.` };
    try {
      const read = readExportZip(new Uint8Array(await blob.arrayBuffer()));
      if (read.json === null)
        return { ...none, error: `“${name}” holds no outpost.json: it is not an Outpost export.` };
      return { ...read, error: null, blob };
    } catch {
      return { ...none, error: `“${name}” could not be read as a zip: the file is damaged or incomplete.` };
    }
  }

  /**
   * The plan's files whose bytes came along (a zip's entries); the others are left out and the preview
   * says so: a JSON export lists files without their bytes.
   */
  function withFileBytes(plan: ImportPlan, entries: Map<string, number> | null): ImportPlan {
    const carried = plan.attachments.filter((f) => f.path !== null && entries?.has(f.path) === true);
    const left = plan.attachments.length - carried.length;
    if (left === 0) return plan;
    const reason = entries
      ? `${plural(left, 'file')} listed without ${left === 1 ? 'its' : 'their'} bytes in this zip: left out`
      : `${plural(left, 'file')} listed without ${left === 1 ? 'its' : 'their'} bytes (the app’s export with files is a .zip): left out`;
    return {
      ...plan,
      attachments: carried,
      warnings: [{ line: 0, text: 'Files', reason }, ...plan.warnings],
    };
  }

  /**
   * The plan's files already on their item (the same uuid, or a live file of the same name and size
   * on an item of the same uuid): an import never attaches a file twice.
   */
  async function knownFiles(files: readonly ImportAttachment[]): Promise<Set<string>> {
    if (files.length === 0) return new Set();
    const items = await db.items
      .where('uuid')
      .anyOf([...new Set(files.map((f) => f.item_uuid))])
      .toArray();
    const idOf = new Map(items.filter((i) => i._deleted === 0).map((i) => [i.uuid ?? '', i.id]));
    const ids = [...idOf.values()];
    const here =
      ids.length === 0
        ? []
        : (await db.attachments.where('item_id').anyOf(ids).toArray()).filter((r) => r._deleted !== 1);
    const out = new Set<string>();
    for (const f of files) {
      const itemId = idOf.get(f.item_uuid);
      if (itemId === undefined) continue;
      if (
        here.some(
          (r) => r.uuid === f.uuid || (r.item_id === itemId && r.name === f.name && r.size === f.size),
        )
      )
        out.add(f.uuid);
    }
    return out;
  }

  /**
   * What this device could not create as the file has it is changed and said in `warnings`, never
   * sent to be refused: an assignee is kept when the pickers could offer them here (yourself, a
   * sample user, someone this device knows); a first occurrence whose rule ended before today (the
   * create path refuses those rules) comes without it.
   */
  async function fitForDevice(plan: ImportPlan): Promise<ImportPlan> {
    const viewer = deps.viewer();
    const today = new Date().toISOString().slice(0, 10);
    const wanted = [...new Set(plan.items.flatMap((i) => (i.assigned_to === null ? [] : [i.assigned_to])))];
    const stored = wanted.length === 0 ? [] : await db.users.bulkGet(wanted);
    const assignable = new Set([
      ...SAMPLE_PEOPLE.map((p) => p.id),
      ...(viewer.isGuest ? [] : [viewer.user.id]),
      ...stored.flatMap((u) => (u ? [u.id] : [])),
    ]);
    const warnings = [...plan.warnings];
    const items = plan.items.map((given, index) => {
      let item = given;
      const warn = (reason: string) =>
        warnings.push({ line: plan.lines[index] ?? 0, text: item.title, reason });
      if (item.assigned_to !== null && !assignable.has(item.assigned_to)) {
        warn(
          `Its assignee (user ${item.assigned_to}) is not someone you can assign here: imported unassigned`,
        );
        item = { ...item, assigned_to: null };
      }
      const rule =
        item.recurrence === null || item.series_uuid !== null ? null : parseRecurrence(item.recurrence);
      if (rule?.ok && rule.rule.until !== null && rule.rule.until < today) {
        warn(`Its repeat rule ended on ${rule.rule.until}: imported without it`);
        item = { ...item, recurrence: null };
      }
      return item;
    });
    warnings.sort((a, b) => a.line - b.line);
    return { ...plan, items, warnings };
  }

  /** The plan's comments already on the device (the same uuid): an import never writes them twice. */
  async function knownComments(plan: Pick<ImportPlan, 'comments'>): Promise<Set<string>> {
    if (plan.comments.length === 0) return new Set();
    const found = await db.comments
      .where('uuid')
      .anyOf(plan.comments.map((c) => c.uuid))
      .toArray();
    return new Set(found.filter((c) => c._deleted === 0).map((c) => c.uuid));
  }

  /** The plan's time entries already on the device (the same uuid, live or not): never written twice. */
  async function knownTimeEntries(plan: Pick<ImportPlan, 'time_entries'>): Promise<Set<string>> {
    if (plan.time_entries.length === 0) return new Set();
    const found = await db.timeEntries
      .where('uuid')
      .anyOf(plan.time_entries.map((e) => e.uuid))
      .toArray();
    return new Set(found.map((e) => e.uuid));
  }

  async function knownUuids(items: readonly ImportItem[]): Promise<Set<string>> {
    const found = await db.items
      .where('uuid')
      .anyOf(items.map((i) => i.uuid))
      .toArray();
    return new Set(found.filter((i) => i._deleted === 0).map((i) => i.uuid ?? ''));
  }

  /**
   * Creates the plan's items, parents first, through the repository (so they are queued and sync);
   * an item already here (same uuid) is skipped. `onProgress` hears after every item. Signed in, the
   * creates are queued as one batch upload, sent in a few `POST /api/items/batch` requests by one sync
   * run at the end, not one request each (P19); all of them are one undo step, 'Import' (P4).
   */
  async function runImport(
    plan: Pick<ImportPreview, 'items'> &
      Partial<Pick<ImportPreview, 'comments' | 'time_entries' | 'attachments' | 'zip'>>,
    onProgress: (done: number, total: number) => void = () => {},
  ): Promise<ImportResult> {
    const result: ImportResult = {
      created: 0,
      skipped: 0,
      comments: 0,
      timeEntries: 0,
      files: 0,
      failed: [],
    };
    const known = await knownUuids(plan.items);
    const ids = new Map<string, number>();
    const total = plan.items.length;
    const gesture = { group: `import-${crypto.randomUUID()}`, label: IMPORT_UNDO_LABEL, batch: true };
    let done = 0;
    const release = holdImportUpload(db);
    try {
      await writeItems();
    } finally {
      release();
    }
    await restoreComments(plan.comments ?? [], ids, result);
    await restoreTimeEntries(plan.time_entries ?? [], ids, result);
    await restoreFiles(plan.attachments ?? [], plan.zip ?? null, ids, result);
    if ((result.created > 0 || result.comments > 0 || result.timeEntries > 0) && !deps.viewer().isGuest)
      deps.syncSoon?.();
    // Uploads run beside the queue (A2); the uploader itself waits for their items to be on the server (A3).
    if (result.files > 0 && !deps.viewer().isGuest) deps.uploads?.kick();
    return result;

    async function writeItems() {
      for (const item of plan.items) {
        done += 1;
        if (known.has(item.uuid)) {
          result.skipped += 1;
          const here = await db.items.where('uuid').equals(item.uuid).first();
          if (here) ids.set(item.uuid, here.id);
          onProgress(done, total);
          continue;
        }
        let parentId: number | null = null;
        if (item.parent_uuid) {
          parentId = ids.get(item.parent_uuid) ?? null;
          if (parentId === null) {
            const stored = await db.items.where('uuid').equals(item.parent_uuid).first();
            if (stored && stored._deleted === 0) parentId = stored.id;
          }
        }
        try {
          const created = await deps.items.create(
            {
              // Every declared field the file gave; one it left as none the device picks (its own zone,
              // a place after the last sibling's, in file order).
              ...importCreateFields(item),
              type: item.type,
              parent_id: parentId,
              uuid: item.uuid,
            },
            gesture,
          );
          // Children name the parent's local id; the batch upload gives each the server's in turn.
          ids.set(item.uuid, created.id);
          result.created += 1;
        } catch (error) {
          result.failed.push({
            title: item.title,
            reason: error instanceof Error ? error.message : String(error),
          });
        }
        onProgress(done, total);
      }
    }
  }

  /**
   * Writes the file's comments this device lacks on their items, as the importer's, through the
   * comment write path (queued and synced like one typed, SYNC.md K8): after the items, so each
   * comment's item is here.
   */
  async function restoreComments(
    comments: NonNullable<ImportPreview['comments']>,
    ids: Map<string, number>,
    result: ImportResult,
  ): Promise<void> {
    const here = await knownComments({ comments });
    const viewer = deps.viewer();
    for (const comment of comments) {
      if (here.has(comment.uuid)) continue;
      const itemId = ids.get(comment.item_uuid);
      if (itemId === undefined) continue;
      try {
        await createComment(db, viewer, { itemId, body: comment.body, mentions: [], uuid: comment.uuid });
        result.comments += 1;
      } catch (error) {
        result.failed.push({
          title: `A comment by ${comment.author}`,
          reason: error instanceof Error ? error.message : String(error),
        });
      }
    }
  }

  /**
   * T3: writes the importer's time entries this device lacks on their items through the time entry
   * write path (X10: queued and synced by uuid, so the server stores each once, X9); one that overlaps
   * an entry already here is refused as a typed one would be and listed.
   */
  async function restoreTimeEntries(
    entries: NonNullable<ImportPreview['time_entries']>,
    ids: Map<string, number>,
    result: ImportResult,
  ): Promise<void> {
    const here = await knownTimeEntries({ time_entries: entries });
    const viewer = deps.viewer();
    for (const entry of entries) {
      if (here.has(entry.uuid)) continue;
      const itemId = ids.get(entry.item_uuid);
      if (itemId === undefined) continue;
      try {
        await addManualEntry(db, viewer, {
          itemId,
          startedAt: entry.started_at,
          endedAt: entry.ended_at,
          note: entry.note,
          uuid: entry.uuid,
        });
        result.timeEntries += 1;
      } catch (error) {
        result.failed.push({
          title: `A time entry of ${entry.started_at.slice(0, 16).replace('T', ' ')} UTC`,
          reason: error instanceof Error ? error.message : String(error),
        });
      }
    }
  }

  /**
   * Attaches the zip's files to their items again, as new uploads by the importer through the file
   * write path (SYNC.md A1: stored at once with their bytes, uploaded beside the queue), after the
   * items, one file's bytes read from the zip at a time; a file already on its item is skipped.
   */
  async function restoreFiles(
    files: readonly ImportAttachment[],
    zip: Blob | null,
    ids: Map<string, number>,
    result: ImportResult,
  ): Promise<void> {
    if (files.length === 0 || zip === null) return;
    const here = await knownFiles(files);
    const wanted = files.filter((f) => !here.has(f.uuid) && f.path !== null && ids.has(f.item_uuid));
    if (wanted.length === 0) return;
    const bytes = new Uint8Array(await zip.arrayBuffer());
    const viewer = deps.viewer();
    for (const f of wanted) {
      try {
        const content = f.path === null ? null : zipEntryBytes(bytes, f.path);
        if (!content) throw new Error('Its bytes are not in the zip.');
        const file = new File([content as Uint8Array<ArrayBuffer>], f.name, { type: f.type });
        await addFiles(db, viewer, ids.get(f.item_uuid)!, [file]);
        result.files += 1;
      } catch (error) {
        result.failed.push({
          title: `The file “${f.name}”`,
          reason: error instanceof Error ? error.message : String(error),
        });
      }
    }
  }

  /** What this device stores: the items, the bytes, and whether the browser keeps them. */
  async function storageInfo(): Promise<StorageInfo> {
    const items = (await scopeItems(db, deps.viewer())).length;
    const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
    const [estimate, persisted] = await Promise.all([
      storage?.estimate ? storage.estimate().catch(() => null) : null,
      storage?.persisted ? storage.persisted().catch(() => null) : null,
    ]);
    return { items, bytes: estimate?.usage ?? null, persisted };
  }

  return { exportFile, planImport, runImport, storageInfo };
}

export type DataTransfer = ReturnType<typeof createDataTransfer>;
