/**
 * Export and import on the device (ARCHITECTURE §5), loaded on first use so papaparse and the parsers
 * stay out of the first screen. Export reads IndexedDB (offline, as a guest); import creates through
 * the repository, the normal write path, so imported items sync like anything else.
 */
import {
  type ExportSource,
  exportCsv,
  exportDocument,
  exportFileName,
  type ImportItem,
  type ImportPlan,
  importFileProblem,
  parseImport,
} from '../../../shared/importExport';
import type { UserSummary } from '../../../shared/item';
import { parseRecurrence } from '../../../shared/recurrenceRule';
import { deviceTimeZone } from '../../../shared/timeZone';
import type { ItemsRepository } from '../items/itemsRepository';
import type { OutpostDb } from '../store/db';
import type { LocalItem, Viewer } from '../store/types';

export interface DataTransferDeps {
  db: OutpostDb;
  viewer: () => Viewer & { user: UserSummary };
  items: ItemsRepository;
  /** Starts one sync run: an import's creates, queued without being sent, go up in it (P19). */
  syncSoon?: () => unknown;
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
}

export interface ImportResult {
  created: number;
  skipped: number;
  failed: { title: string; reason: string }[];
}

/** The device's live items of the viewer's scope (the guest's own, or the account's). */
async function scopeItems(db: OutpostDb, viewer: Viewer): Promise<LocalItem[]> {
  const all = await db.items.toArray();
  return all.filter(
    (i) => i._deleted === 0 && (viewer.isGuest ? i._syncStatus === 'local' : i._syncStatus !== 'local'),
  );
}

const asSource = (i: LocalItem): ExportSource => i;

/** The users the server seeds (ARCHITECTURE §5 'Assignees'): every picker offers them, a guest's too. */
const SAMPLE_USER_IDS: readonly number[] = [1, 2, 3, 4];

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
    const items = (await scopeItems(db, viewer)).map(asSource);
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
      problems: [],
      warnings: [],
      lines: [],
      error: problem,
      fileName: file.name,
      existing: 0,
    };
    if (problem) return empty;
    const parsed = parseImport(await file.text(), {
      fileName: file.name,
      userId: deps.viewer().userId,
      // Todoist's dates in words count from now, where this device is.
      now: new Date(),
      timeZone: deviceTimeZone(),
    });
    const plan = await fitForDevice(parsed);
    const known = await knownUuids(plan.items);
    const fresh = plan.items.filter((i) => !known.has(i.uuid));
    const counts = { campaign: 0, task: 0, todo: 0 };
    for (const item of fresh) counts[item.type] += 1;
    return { ...plan, counts, fileName: file.name, existing: plan.items.length - fresh.length };
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
      ...SAMPLE_USER_IDS,
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
    plan: Pick<ImportPreview, 'items'>,
    onProgress: (done: number, total: number) => void = () => {},
  ): Promise<ImportResult> {
    const result: ImportResult = { created: 0, skipped: 0, failed: [] };
    const known = await knownUuids(plan.items);
    const ids = new Map<string, number>();
    const total = plan.items.length;
    const gesture = { group: `import-${crypto.randomUUID()}`, label: IMPORT_UNDO_LABEL, batch: true };
    let done = 0;
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
            title: item.title,
            type: item.type,
            status: item.status,
            description: item.description,
            due_date: item.due_date,
            end_date: item.end_date,
            remind_at: item.remind_at,
            recurrence: item.recurrence,
            series_uuid: item.series_uuid,
            // A file that names no zone (Todoist, older exports) takes the device's, as a new item does.
            ...(item.time_zone ? { time_zone: item.time_zone } : {}),
            priority: item.priority,
            labels: item.labels,
            // A file that gives no place puts the item after its last sibling's, in file order.
            ...(item.sort_key ? { sort_key: item.sort_key } : {}),
            assigned_to: item.assigned_to,
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
    if (result.created > 0 && !deps.viewer().isGuest) deps.syncSoon?.();
    return result;
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
