/**
 * Export and import on the device (ARCHITECTURE §5), loaded on first use so papaparse and the parsers
 * stay out of the first screen. Export reads IndexedDB (offline, as a guest); import creates through
 * the repository, the normal write path, so imported items sync like anything else.
 */
import { bodyText } from '../../../shared/comments';
import {
  type ExportComment,
  type ExportMember,
  type ExportSource,
  exportCsv,
  exportDocument,
  exportFileName,
  type ImportItem,
  type ImportPlan,
  importCreateFields,
  importFileProblem,
  parseImport,
} from '../../../shared/importExport';
import type { UserSummary } from '../../../shared/item';
import { parseRecurrence } from '../../../shared/recurrenceRule';
import { deviceTimeZone } from '../../../shared/timeZone';
import { createComment } from '../comments/localComments';
import type { StoredMutuals } from '../contacts/mutuals';
import type { ItemsRepository } from '../items/itemsRepository';
import { getMeta, META_KEYS, type OutpostDb } from '../store/db';
import type { LocalItem, Viewer } from '../store/types';
import { holdImportUpload } from '../sync/guestUpgrade';

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
}

/** The undo step an import makes, one for all its items: the toast and Ctrl/Cmd+Z say 'Undo import'. */
export const IMPORT_UNDO_LABEL = 'Import';

export interface ExportFile {
  name: string;
  mime: string;
  text: string;
}

/** An import as it will run: the plan, and how many of its items this device already has. */
export interface ImportPreview extends ImportPlan {
  fileName: string;
  /** Items of the file already here (same uuid): they are skipped, never doubled. */
  existing: number;
  /** Comments of the file this device does not have yet: the import writes them, as the importer's. */
  newComments: number;
}

export interface ImportResult {
  created: number;
  skipped: number;
  /** Comments restored (written by the importer; one by someone else names them, ImportComment). */
  comments: number;
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

  /** Outpost JSON or CSV of everything on the device for this viewer; no network needed. */
  async function exportFile(format: 'json' | 'csv', now = new Date()): Promise<ExportFile> {
    const viewer = deps.viewer();
    const local = await scopeItems(db, viewer);
    const names = await peopleNames();
    const comments = format === 'json' ? await commentsOf(local) : new Map<string, ExportComment[]>();
    const members = format === 'json' ? await membersOf(local) : new Map<number, ExportMember[]>();
    const items = local.map(
      (i): ExportSource => ({
        ...i,
        assignee_name:
          i.assigned_to === null ? null : (i.assignedUser?.name ?? names.get(i.assigned_to) ?? null),
        comments: comments.get(i.uuid ?? `#${i.id}`) ?? [],
        ...(members.has(i.id) ? { members: members.get(i.id) } : {}),
      }),
    );
    if (format === 'csv')
      return { name: exportFileName(now, 'csv'), mime: 'text/csv', text: `\uFEFF${exportCsv(items)}` };
    const user = viewer.isGuest ? null : { id: viewer.user.id, name: viewer.user.name };
    const doc = exportDocument(items, user, now);
    return {
      name: exportFileName(now, 'json'),
      mime: 'application/json',
      text: JSON.stringify(doc, null, 2),
    };
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

  /** Reads a picked file into what it will create; bad files get a clear `error` and create nothing. */
  async function planImport(file: {
    name: string;
    size: number;
    text: () => Promise<string>;
    slice?: (a: number, b: number) => Blob;
  }): Promise<ImportPreview> {
    const head = file.slice ? new Uint8Array(await file.slice(0, 4096).arrayBuffer()) : new Uint8Array();
    const problem = importFileProblem({ name: file.name, size: file.size, bytes: head });
    const empty: ImportPreview = {
      source: null,
      items: [],
      counts: { campaign: 0, task: 0, todo: 0 },
      comments: [],
      problems: [],
      warnings: [],
      lines: [],
      error: problem,
      fileName: file.name,
      existing: 0,
      newComments: 0,
    };
    if (problem) return empty;
    const parsed = parseImport(await file.text(), {
      fileName: file.name,
      userId: deps.viewer().userId,
      // Todoist's dates in words count from now, where this device is.
      now: new Date(),
      timeZone: deviceTimeZone(),
      people: await people(),
    });
    const plan = await fitForDevice(parsed);
    const known = await knownUuids(plan.items);
    const fresh = plan.items.filter((i) => !known.has(i.uuid));
    const counts = { campaign: 0, task: 0, todo: 0 };
    for (const item of fresh) counts[item.type] += 1;
    const here = await knownComments(plan);
    return {
      ...plan,
      counts,
      fileName: file.name,
      existing: plan.items.length - fresh.length,
      newComments: plan.comments.filter((c) => !here.has(c.uuid)).length,
    };
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
    plan: Pick<ImportPreview, 'items'> & Partial<Pick<ImportPreview, 'comments'>>,
    onProgress: (done: number, total: number) => void = () => {},
  ): Promise<ImportResult> {
    const result: ImportResult = { created: 0, skipped: 0, comments: 0, failed: [] };
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
    if ((result.created > 0 || result.comments > 0) && !deps.viewer().isGuest) deps.syncSoon?.();
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
