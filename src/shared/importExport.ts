import Papa from 'papaparse';
import { v5 as uuidV5 } from 'uuid';
import { ALLOWED_PARENT_TYPES } from './hierarchy';
import {
  DESCRIPTION_MAX_LENGTH,
  ITEM_STATUSES,
  ITEM_TYPES,
  type ItemStatus,
  type ItemType,
  TITLE_MAX_LENGTH,
} from './item';

/**
 * Outpost's export and import (ARCHITECTURE §5): the Outpost JSON document (as GET /api/export), the
 * Outpost CSV, and reading Outpost JSON, Outpost CSV and Todoist's CSV export into a plan of items
 * to create, parents first, each with a uuid, so importing the same file twice creates nothing new.
 */

export const EXPORT_FORMAT = 'outpost';
export const EXPORT_VERSION = 1;
/** The largest file read for an import. */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
/** The namespace of every uuid an import derives (a random v4, fixed forever). */
export const IMPORT_NAMESPACE = '3f1c2b9e-7a55-4d0e-9a3c-5b8e2f6d1a47';
export const CSV_COLUMNS = ['type', 'title', 'description', 'status', 'due_date', 'parent_title'] as const;

/** The fields of an item an export carries. */
export interface ExportSource {
  id: number;
  uuid: string | null;
  parent_id: number | null;
  title: string;
  description: string | null;
  type: ItemType;
  status: ItemStatus;
  assigned_to: number | null;
  due_date: string | null;
  end_date: string | null;
  remind_at?: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface ExportItem extends Omit<ExportSource, 'remind_at'> {
  remind_at: string | null;
  parent_uuid: string | null;
}

export interface ExportDocument {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exported_at: string;
  /** Whose export it is; null (or id 0) for a guest's device. */
  user: { id: number; name: string } | null;
  items: ExportItem[];
}

/** An item's uuid, or one derived from its id for rows from before every item had one. */
const uuidOf = (item: ExportSource) => item.uuid ?? uuidV5(`item:${item.id}`, IMPORT_NAMESPACE);

/** The Outpost JSON document of these items (parents are named by uuid; one not exported by none). */
export function exportDocument(
  items: readonly ExportSource[],
  user: { id: number; name: string } | null,
  now: Date,
): ExportDocument {
  const byId = new Map(items.map((i) => [i.id, i]));
  const order: ExportSource[] = [...items].sort(
    (a, b) =>
      ITEM_TYPES.indexOf(a.type) - ITEM_TYPES.indexOf(b.type) || a.created_at.localeCompare(b.created_at),
  );
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: now.toISOString(),
    user,
    items: order.map((i) => {
      const parent = i.parent_id === null ? undefined : byId.get(i.parent_id);
      return {
        id: i.id,
        uuid: uuidOf(i),
        parent_id: i.parent_id,
        parent_uuid: parent ? uuidOf(parent) : null,
        title: i.title,
        description: i.description,
        type: i.type,
        status: i.status,
        assigned_to: i.assigned_to,
        due_date: i.due_date,
        end_date: i.end_date,
        remind_at: i.remind_at ?? null,
        created_at: i.created_at,
        updated_at: i.updated_at,
        completed_at: i.completed_at,
      };
    }),
  };
}

/** Outpost CSV: `type,title,description,status,due_date,parent_title`, parents before children. */
export function exportCsv(items: readonly ExportSource[]): string {
  const byId = new Map(items.map((i) => [i.id, i]));
  const order = [...items].sort(
    (a, b) =>
      ITEM_TYPES.indexOf(a.type) - ITEM_TYPES.indexOf(b.type) || a.created_at.localeCompare(b.created_at),
  );
  const rows = order.map((i) => [
    i.type,
    i.title,
    i.description ?? '',
    i.status,
    i.due_date ?? '',
    (i.parent_id === null ? undefined : byId.get(i.parent_id))?.title ?? '',
  ]);
  return Papa.unparse({ fields: [...CSV_COLUMNS], data: rows }, { newline: '\r\n' });
}

/** The download name for an export made at `now`: outpost-YYYY-MM-DD.json (or .csv). */
export function exportFileName(now: Date, extension: 'json' | 'csv'): string {
  return `outpost-${now.toISOString().slice(0, 10)}.${extension}`;
}

// ---------------------------------------------------------------------------------------------
// Import
// ---------------------------------------------------------------------------------------------

/** One item an import will create, parents first; `parent_uuid` names an item of the plan or one already stored. */
export interface ImportItem {
  uuid: string;
  parent_uuid: string | null;
  type: ItemType;
  title: string;
  description: string | null;
  status: ItemStatus;
  due_date: string | null;
}

export interface ImportProblem {
  /** 1-based line (CSV) or item number (JSON). */
  line: number;
  text: string;
  reason: string;
}

export type ImportSource = 'outpost-json' | 'outpost-csv' | 'todoist-csv';

export interface ImportPlan {
  source: ImportSource | null;
  items: ImportItem[];
  counts: Record<ItemType, number>;
  problems: ImportProblem[];
  /** Why nothing can be imported (empty, unreadable, wrong shape); null when the plan may be run. */
  error: string | null;
}

export interface ImportOptions {
  fileName: string;
  /** Who imports: 0 for a guest. An Outpost JSON of another account gets derived uuids. */
  userId: number;
}

const shorten = (text: string) => (text.length > 80 ? `${text.slice(0, 79)}…` : text);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** A calendar date (YYYY-MM-DD) read from '2030-05-01', '2030-05-01T09:00', '1 May 2030' or 'May 1 2030'; else null. */
export function readDate(text: string): string | null {
  const value = text.trim();
  const pad = (n: number) => String(n).padStart(2, '0');
  const valid = (y: number, m: number, d: number) => {
    const date = new Date(Date.UTC(y, m - 1, d));
    return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
      ? `${y}-${pad(m)}-${pad(d)}`
      : null;
  };
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(value);
  if (iso) return valid(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const dayFirst = /^(\d{1,2})\s+([a-z]{3})[a-z]*\.?,?\s+(\d{4})$/i.exec(value);
  if (dayFirst) {
    const m = MONTHS.indexOf(dayFirst[2]!.toLowerCase());
    return m < 0 ? null : valid(Number(dayFirst[3]), m + 1, Number(dayFirst[1]));
  }
  const monthFirst = /^([a-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})$/i.exec(value);
  if (monthFirst) {
    const m = MONTHS.indexOf(monthFirst[1]!.toLowerCase());
    return m < 0 ? null : valid(Number(monthFirst[3]), m + 1, Number(monthFirst[2]));
  }
  return null;
}

/** Why a picked file cannot be imported (empty, too large, not text), or null when it may be. */
export function importFileProblem(file: { name: string; size: number; bytes: Uint8Array }): string | null {
  if (file.size === 0) return `“${file.name}” is empty: there is nothing to import.`;
  if (file.size > IMPORT_MAX_BYTES) return `“${file.name}” is too large: an import is at most 10 MB.`;
  let control = 0;
  for (const byte of file.bytes) {
    if (byte === 0)
      return `“${file.name}” is not a text file. Choose an Outpost .json or .csv, or a Todoist .csv export.`;
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) control += 1;
  }
  if (control > 0 && control * 100 > file.bytes.length)
    return `“${file.name}” is not a text file. Choose an Outpost .json or .csv, or a Todoist .csv export.`;
  return null;
}

/** Title and description within the limits: an over-long title keeps its whole text in the description. */
function fitText(title: string, description: string | null): { title: string; description: string | null } {
  const clean = title.trim();
  if (clean.length <= TITLE_MAX_LENGTH) return { title: clean, description };
  const more = description ? `${clean}\n\n${description}` : clean;
  return {
    title: `${clean.slice(0, TITLE_MAX_LENGTH - 1)}…`,
    description: more.slice(0, DESCRIPTION_MAX_LENGTH),
  };
}

function emptyPlan(
  source: ImportSource | null,
  error: string | null,
  problems: ImportProblem[] = [],
): ImportPlan {
  return { source, items: [], counts: { campaign: 0, task: 0, todo: 0 }, problems, error };
}

function finish(source: ImportSource, items: ImportItem[], problems: ImportProblem[]): ImportPlan {
  const counts: Record<ItemType, number> = { campaign: 0, task: 0, todo: 0 };
  for (const item of items) counts[item.type] += 1;
  const error =
    items.length === 0
      ? problems.length > 0
        ? 'No line of this file could be read as an item.'
        : 'This file holds no items.'
      : null;
  return { source, items, counts, problems, error };
}

/** Reads an import file's text into what it will create (see ImportPlan). Pure: same text, same plan. */
export function parseImport(text: string, options: ImportOptions): ImportPlan {
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') return emptyPlan(null, 'The file is empty: there is nothing to import.');
  const start = body.trimStart()[0];
  if (start === '{' || start === '[') return parseOutpostJson(body, options);
  const rows = Papa.parse<string[]>(body, { skipEmptyLines: false }).data;
  const header = (rows[0] ?? []).map((h) => h.trim().toLowerCase());
  if (header.includes('type') && header.includes('content')) return parseTodoist(rows, header, options);
  if (header.includes('type') && header.includes('title')) return parseOutpostCsv(rows, header, options);
  return emptyPlan(
    null,
    'This is not a file Outpost can import: use an Outpost export (.json or .csv) or a Todoist CSV export.',
  );
}

function parseOutpostJson(body: string, options: ImportOptions): ImportPlan {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    return emptyPlan('outpost-json', 'This JSON could not be read: the file is damaged or incomplete.');
  }
  const shape = doc as { format?: unknown; items?: unknown; user?: unknown };
  if (
    typeof doc !== 'object' ||
    doc === null ||
    shape.format !== EXPORT_FORMAT ||
    !Array.isArray(shape.items)
  )
    return emptyPlan(
      'outpost-json',
      'This JSON is not an Outpost export (it needs "format": "outpost" and a list of items).',
    );
  const owner = shape.user as { id?: unknown } | null | undefined;
  const ownerId = typeof owner?.id === 'number' ? owner.id : 0;
  // Another account's items become new items: their uuids are derived, so a second import of the same
  // file derives the same ones and doubles nothing. A guest's export (id 0) is anyone's own.
  const foreign = ownerId !== 0 && ownerId !== options.userId;
  const mapUuid = (uuid: string) =>
    foreign ? uuidV5(`account:${ownerId}:${uuid}`, IMPORT_NAMESPACE) : uuid.toLowerCase();
  const problems: ImportProblem[] = [];
  const read: (ImportItem & { index: number })[] = [];
  shape.items.forEach((raw: unknown, index) => {
    const line = index + 1;
    const item = raw as Record<string, unknown>;
    const label = shorten(typeof item?.title === 'string' ? item.title : (JSON.stringify(raw) ?? ''));
    if (typeof raw !== 'object' || raw === null) {
      problems.push({ line, text: label, reason: 'Not an item' });
      return;
    }
    if (typeof item.type !== 'string' || !(ITEM_TYPES as readonly string[]).includes(item.type)) {
      problems.push({ line, text: label, reason: `Unknown type “${String(item.type)}”` });
      return;
    }
    if (typeof item.title !== 'string' || item.title.trim() === '') {
      problems.push({ line, text: label, reason: 'No title' });
      return;
    }
    if (typeof item.uuid !== 'string' || !UUID.test(item.uuid)) {
      problems.push({ line, text: label, reason: 'No uuid' });
      return;
    }
    const status = (ITEM_STATUSES as readonly string[]).includes(String(item.status))
      ? (item.status as ItemStatus)
      : 'pending';
    const parent =
      typeof item.parent_uuid === 'string' && UUID.test(item.parent_uuid) ? item.parent_uuid : null;
    const description = typeof item.description === 'string' ? item.description : null;
    read.push({
      index,
      uuid: mapUuid(item.uuid),
      parent_uuid: parent === null ? null : mapUuid(parent),
      type: item.type as ItemType,
      ...fitText(item.title, description),
      status,
      due_date: typeof item.due_date === 'string' ? readDate(item.due_date) : null,
    });
  });
  // Parents first, whatever order the file has; a parent of the wrong type is a problem, not a guess.
  const byUuid = new Map(read.map((i) => [i.uuid, i]));
  const items: ImportItem[] = [];
  const seen = new Set<string>();
  for (const type of ITEM_TYPES) {
    for (const entry of read) {
      if (entry.type !== type || seen.has(entry.uuid)) continue;
      seen.add(entry.uuid);
      const parent = entry.parent_uuid === null ? undefined : byUuid.get(entry.parent_uuid);
      const allowed: readonly ItemType[] = ALLOWED_PARENT_TYPES[entry.type];
      if (parent && !allowed.includes(parent.type)) {
        problems.push({
          line: entry.index + 1,
          text: shorten(entry.title),
          reason: `A ${entry.type} cannot be placed under a ${parent.type}`,
        });
        continue;
      }
      const { index: _index, ...item } = entry;
      items.push(item);
    }
  }
  problems.sort((a, b) => a.line - b.line);
  return finish('outpost-json', items, problems);
}

/** A uuid for a CSV line: from the file, the parent and the title (and how often it came before). */
function csvUuid(
  source: string,
  parent: string | null,
  type: ItemType,
  title: string,
  seen: Map<string, number>,
) {
  const key = `${source}:${parent ?? ''}:${type}:${title}`;
  const n = (seen.get(key) ?? 0) + 1;
  seen.set(key, n);
  return uuidV5(`${key}:${n}`, IMPORT_NAMESPACE);
}

function parseOutpostCsv(rows: string[][], header: string[], options: ImportOptions): ImportPlan {
  const col = (name: string) => header.indexOf(name);
  const [cType, cTitle, cDesc, cStatus, cDue, cParent] = CSV_COLUMNS.map(col);
  const problems: ImportProblem[] = [];
  const items: ImportItem[] = [];
  const byTitle = new Map<string, ImportItem>();
  const seen = new Map<string, number>();
  const source = `outpost-csv:${options.fileName}`;
  rows.slice(1).forEach((row, index) => {
    const line = index + 2;
    const get = (c: number | undefined) => (c === undefined || c < 0 ? '' : (row[c] ?? '').trim());
    if (row.every((f) => f.trim() === '')) return;
    const text = shorten(row.join(','));
    const type = get(cType).toLowerCase();
    if (!(ITEM_TYPES as readonly string[]).includes(type)) {
      problems.push({ line, text, reason: type === '' ? 'No type' : `Unknown type “${shorten(type)}”` });
      return;
    }
    const title = get(cTitle);
    if (title === '') {
      problems.push({ line, text, reason: 'No title' });
      return;
    }
    const parentTitle = get(cParent);
    const parent = parentTitle === '' ? null : (byTitle.get(parentTitle) ?? null);
    const allowed: readonly ItemType[] = ALLOWED_PARENT_TYPES[type as ItemType];
    if (parentTitle !== '' && !parent) {
      problems.push({
        line,
        text,
        reason: `Its parent “${shorten(parentTitle)}” is not above it in the file`,
      });
      return;
    }
    if (parent && !allowed.includes(parent.type)) {
      problems.push({ line, text, reason: `A ${type} cannot be placed under a ${parent.type}` });
      return;
    }
    const status = get(cStatus)
      .toLowerCase()
      .replace(/[\s-]+/g, '_');
    const item: ImportItem = {
      uuid: csvUuid(source, parent?.uuid ?? null, type as ItemType, title, seen),
      parent_uuid: parent?.uuid ?? null,
      type: type as ItemType,
      ...fitText(title, get(cDesc) || null),
      status: (ITEM_STATUSES as readonly string[]).includes(status) ? (status as ItemStatus) : 'pending',
      due_date: readDate(get(cDue)),
    };
    items.push(item);
    byTitle.set(title, item);
  });
  return finish('outpost-csv', items, problems);
}

/**
 * Todoist's CSV export (TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,…): the file becomes a campaign named
 * after it; `section` rows and INDENT 1 tasks become tasks; deeper tasks become todos under the task
 * above them; `note` rows are appended to the description of the item above; a DATE that is a date
 * becomes the due date.
 */
function parseTodoist(rows: string[][], header: string[], options: ImportOptions): ImportPlan {
  const col = (name: string) => header.indexOf(name);
  const cType = col('type');
  const cContent = col('content');
  const cDesc = col('description');
  const cIndent = col('indent');
  const cDate = col('date');
  const name = options.fileName.replace(/\.[^.]+$/, '').trim() || 'Todoist import';
  const source = `todoist:${options.fileName}`;
  const seen = new Map<string, number>();
  const campaign: ImportItem = {
    uuid: uuidV5(`${source}:campaign`, IMPORT_NAMESPACE),
    parent_uuid: null,
    type: 'campaign',
    ...fitText(name, null),
    status: 'pending',
    due_date: null,
  };
  const items: ImportItem[] = [campaign];
  const problems: ImportProblem[] = [];
  let lastTask: ImportItem | null = null;
  let last: ImportItem | null = null;
  rows.slice(1).forEach((row, index) => {
    const line = index + 2;
    const get = (c: number) => (c < 0 ? '' : (row[c] ?? '').trim());
    if (row.every((f) => f.trim() === '')) return;
    const text = shorten(row.join(','));
    const kind = get(cType).toLowerCase();
    const content = get(cContent);
    if (kind === 'note') {
      if (!last) {
        problems.push({ line, text, reason: 'A note with no task above it' });
        return;
      }
      if (content === '') return;
      const description = last.description ? `${last.description}\n\n${content}` : content;
      last.description = description.slice(0, DESCRIPTION_MAX_LENGTH);
      return;
    }
    if (kind !== 'task' && kind !== 'section') {
      problems.push({ line, text, reason: kind === '' ? 'No TYPE' : `Unknown TYPE “${shorten(kind)}”` });
      return;
    }
    if (content === '') {
      problems.push({ line, text, reason: 'No CONTENT' });
      return;
    }
    const indent = Number.parseInt(get(cIndent) || '1', 10);
    const asTodo = kind === 'task' && Number.isFinite(indent) && indent > 1 && lastTask !== null;
    const parent = asTodo ? lastTask! : campaign;
    const type: ItemType = asTodo ? 'todo' : 'task';
    const item: ImportItem = {
      uuid: csvUuid(source, parent.uuid, type, content, seen),
      parent_uuid: parent.uuid,
      type,
      ...fitText(content, get(cDesc) || null),
      status: 'pending',
      due_date: kind === 'task' ? readDate(get(cDate)) : null,
    };
    items.push(item);
    last = item;
    if (type === 'task') lastTask = item;
  });
  if (items.length === 1) return finish('todoist-csv', [], problems);
  return finish('todoist-csv', items, problems);
}
