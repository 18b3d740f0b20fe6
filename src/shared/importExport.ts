import Papa from 'papaparse';
import { v5 as uuidV5 } from 'uuid';
import { cleanFileName } from './attachments';
import { COMMENT_BODY_MAX, escapeTypedTokens } from './comments';
import { csvCell, readCsvCell } from './csvCell';
import { parseDuration } from './duration';
import { ALLOWED_PARENT_TYPES } from './hierarchy';
import { DESCRIPTION_MAX_LENGTH, ITEM_TYPES, type ItemStatus, type ItemType, TITLE_MAX_LENGTH } from './item';
import {
  type DeclaredItemFields,
  type FieldSchemaKey,
  type FlaggedField,
  fieldsWith,
  ITEM_FIELDS,
  type ItemFieldName,
  SHORT_TEXT_MAX,
  storedValueOf,
} from './itemFields';
import type { Role } from './membership';
import { DEFAULT_PRIORITY, LABELS_MAX, labelKey, labelProblem, PRIORITIES, type Priority } from './planning';

export { csvCell, readCsvCell };

import { readQuickAdd } from './quickAdd';
import { formatRecurrence, parseRecurrence, recurrenceProblem } from './recurrenceRule';
import { isFractionalKey, SORT_KEY_PATTERN } from './sortKey';
import { spanProblem } from './span';
import { entryProblem, minutesOf, TIME_NOTE_MAX } from './timeEntries';
import { normalizeTimeZone } from './timeZone';

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
/** The declared fields an export writes (shared/itemFields.ts `export`), in declaration order. */
type ExportField = FlaggedField<'export'>;
/**
 * The declared fields an import reads beyond an item's head (title, description, status and its
 * parent, which every format reads its own way), each by its schema key's reader (FIELD_READERS).
 */
type MoreField = Exclude<ExportField, 'title' | 'description' | 'status' | 'parent_id'>;
const MORE_FIELDS = fieldsWith('export').filter(
  (f): f is MoreField => f !== 'title' && f !== 'description' && f !== 'status' && f !== 'parent_id',
);

/** The spec's six columns and the uuids, ahead of the other declared fields in CSV_COLUMNS. */
const CSV_HEAD = [
  'type',
  'title',
  'description',
  'status',
  'due_date',
  'parent_title',
  'uuid',
  'parent_uuid',
] as const;
/**
 * Outpost CSV's columns: the spec's six first (what a person reads), then the uuids that make a
 * second import of the same file double nothing and name a parent exactly, titles alike or not, then
 * every other declared field with a CSV column (`csv`), in declaration order, so a CSV round trip
 * loses nothing either.
 */
export const CSV_COLUMNS: readonly string[] = [
  ...CSV_HEAD,
  ...fieldsWith('csv').filter((f) => !(CSV_HEAD as readonly string[]).includes(f)),
];

/** How a CSV cell holds an item's labels: labels hold no comma, so the list splits back exactly. */
const LABEL_SEPARATOR = ', ';

/** A comment as an export carries it: its author by name, its body as a reader sees it (mentions as `@Name`). */
export interface ExportComment {
  uuid: string;
  author: string;
  body: string;
  created_at: string;
}

/**
 * A time entry as an export carries it (SYNC.md T3): its author by name, its span as UTC instants
 * (`ended_at` null while it runs), its note; the item is the one it sits on.
 */
export interface ExportTimeEntry {
  uuid: string;
  author: string;
  started_at: string;
  ended_at: string | null;
  note: string;
}

/**
 * A file on an item as an export lists it (ARCHITECTURE §4 'Files on items'): its metadata, never
 * its bytes in the JSON. `path` is where its bytes are inside the export's zip (`files/<uuid>-<name>`,
 * shared/exportZip.ts), null where this export does not carry them: the server's JSON export, or a
 * file the device could not read when it exported (offline, not on the device).
 */
export interface ExportAttachment {
  uuid: string;
  name: string;
  /** The type the server read from the bytes; the browser's guess for a file not uploaded yet. */
  type: string;
  size: number;
  /** Hex sha256 of the bytes; null for a file not uploaded whose bytes the export did not read. */
  sha256: string | null;
  path: string | null;
}

/** A campaign's member as an export carries it, the owner first; the phone as §5's phone rule shows it (null when hidden). */
export interface ExportMember {
  name: string;
  phone: string | null;
  role: Role;
}

/** The declared fields every item row has had from the start (the rest may be absent on older rows). */
type FirstFields = 'title' | 'description' | 'status' | 'parent_id' | 'assigned_to' | 'due_date' | 'end_date';

/**
 * The fields of an item an export carries: the declared ones (shared/itemFields.ts), one absent or
 * null on a row from before it reading as its default (a device's row without a place as none).
 */
export type ExportSource = Pick<DeclaredItemFields, FirstFields> & {
  [F in Exclude<ItemFieldName, FirstFields>]?: DeclaredItemFields[F] | null;
} & {
  id: number;
  uuid: string | null;
  type: ItemType;
  /** The assignee's name (the export names people, never by id); absent: the exporter could not name them. */
  assignee_name?: string | null;
  /** The item's live comments. */
  comments?: readonly ExportComment[];
  /** The item's live time entries (not its descendants'). */
  time_entries?: readonly ExportTimeEntry[];
  /** The item's live files (not its descendants'), with when each was attached (their order). */
  attachments?: readonly (ExportAttachment & { created_at?: string })[];
  /** A campaign's people as its members list shows them; absent where the exporter could not read them. */
  members?: readonly ExportMember[];
  created_at: string;
  updated_at: string;
  completed_at: string | null;
};

type Fields = typeof ITEM_FIELDS;
/** A declared field's value in an export: its default for a row without it; a blank of a field older rows lack (a place) as none. */
type ExportValue<F extends ItemFieldName> = Fields[F]['optional'] extends true
  ? Fields[F]['default'] extends ''
    ? Exclude<DeclaredItemFields[F], undefined> | null
    : Exclude<DeclaredItemFields[F], undefined>
  : DeclaredItemFields[F];

export type ExportItem = { [F in Exclude<ExportField, 'assigned_to'>]: ExportValue<F> } & {
  id: number;
  /** Always written (uuidOf); typed as the source's. */
  uuid: string | null;
  type: ItemType;
  /** The assignee by name (ARCHITECTURE §5 'Import and export'); an import finds the person by it. */
  assigned_to: string | null;
  parent_uuid: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  /** Oldest first. */
  comments: ExportComment[];
  /** Oldest first (then by uuid). */
  time_entries: ExportTimeEntry[];
  /** The item's files, oldest first (then by uuid). */
  attachments: ExportAttachment[];
  /** A campaign's members (the owner first), when the exporter could read them. */
  members?: ExportMember[];
};

export interface ExportDocument {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exported_at: string;
  /** Whose export it is; null (or id 0) for a guest's device. */
  user: { id: number; name: string } | null;
  items: ExportItem[];
}

/** The assignee's name as an export writes it: 'User 12' when the exporter does not know it. */
const assigneeOf = (item: ExportSource): string | null =>
  item.assigned_to === null || item.assigned_to === 0
    ? null
    : (item.assignee_name ?? `User ${item.assigned_to}`);

/** A declared field as an export writes it (ExportValue): a person by name, every other by storedValueOf. */
function exportValueOf(item: ExportSource, field: ExportField): unknown {
  return field === 'assigned_to' ? assigneeOf(item) : storedValueOf(item, field);
}

/** The declared fields of an export's item, in declaration order. */
const exportedFields = (item: ExportSource) =>
  Object.fromEntries(fieldsWith('export').map((f) => [f, exportValueOf(item, f)])) as Omit<
    ExportItem,
    | 'id'
    | 'uuid'
    | 'type'
    | 'parent_uuid'
    | 'created_at'
    | 'updated_at'
    | 'completed_at'
    | 'comments'
    | 'time_entries'
    | 'attachments'
    | 'members'
  >;

/** Comments oldest first (then by uuid), so a device's export and the server's list them alike. */
const commentsOf = (item: ExportSource): ExportComment[] =>
  [...(item.comments ?? [])]
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.uuid.localeCompare(b.uuid))
    .map((c) => ({ uuid: c.uuid, author: c.author, body: c.body, created_at: c.created_at }));

/** Time entries oldest first (then by uuid), so a device's export and the server's list them alike. */
const timeEntriesOf = (item: ExportSource): ExportTimeEntry[] =>
  [...(item.time_entries ?? [])]
    .sort((a, b) => a.started_at.localeCompare(b.started_at) || a.uuid.localeCompare(b.uuid))
    .map((e) => ({
      uuid: e.uuid,
      author: e.author,
      started_at: e.started_at,
      ended_at: e.ended_at,
      note: e.note,
    }));

/** Files oldest first (then by uuid), so a device's export and the server's list them alike. */
const attachmentsOf = (item: ExportSource): ExportAttachment[] =>
  [...(item.attachments ?? [])]
    .sort((a, b) => (a.created_at ?? '').localeCompare(b.created_at ?? '') || a.uuid.localeCompare(b.uuid))
    .map((f) => ({ uuid: f.uuid, name: f.name, type: f.type, size: f.size, sha256: f.sha256, path: f.path }));

/** An item's uuid, or one derived from its id for rows from before every item had one. */
const uuidOf = (item: ExportSource) => item.uuid ?? uuidV5(`item:${item.id}`, IMPORT_NAMESPACE);

/**
 * `list` with every item after its parent (when its parent is in the list) and otherwise as early as
 * the order given allows: of the items whose parent is placed, the first in `list` goes next (Kahn's
 * order with a heap), so the order items were made in survives a round trip. `stuck` are items
 * whose parents form a loop.
 */
function parentsFirst<T>(
  list: readonly T[],
  key: (item: T) => string | number,
  parentKey: (item: T) => string | number | null,
): { ordered: T[]; stuck: T[] } {
  const present = new Set(list.map(key));
  const waiting = new Map<string | number, number[]>();
  const heap: number[] = [];
  const push = (index: number) => {
    heap.push(index);
    for (let i = heap.length - 1; i > 0; ) {
      const up = (i - 1) >> 1;
      if (heap[up]! <= heap[i]!) break;
      [heap[up], heap[i]] = [heap[i]!, heap[up]!];
      i = up;
    }
  };
  const pop = (): number => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let least = i;
        if (l < heap.length && heap[l]! < heap[least]!) least = l;
        if (r < heap.length && heap[r]! < heap[least]!) least = r;
        if (least === i) break;
        [heap[least], heap[i]] = [heap[i]!, heap[least]!];
        i = least;
      }
    }
    return top;
  };
  list.forEach((item, index) => {
    const parent = parentKey(item);
    // Its own parent: a loop of one, left for `stuck`.
    if (parent !== null && parent === key(item)) return;
    if (parent === null || !present.has(parent)) {
      push(index);
      return;
    }
    const siblings = waiting.get(parent);
    if (siblings) siblings.push(index);
    else waiting.set(parent, [index]);
  });
  const ordered: T[] = [];
  while (heap.length > 0) {
    const item = list[pop()]!;
    ordered.push(item);
    for (const child of waiting.get(key(item)) ?? []) push(child);
    waiting.delete(key(item));
  }
  const placed = new Set(ordered);
  return { ordered, stuck: list.filter((item) => !placed.has(item)) };
}

/** Items in the order they were made (created_at, then id), parents first. */
function exportOrder(items: readonly ExportSource[]): ExportSource[] {
  const byAge = [...items].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id);
  const { ordered, stuck } = parentsFirst(
    byAge,
    (i) => i.id,
    (i) => i.parent_id,
  );
  return [...ordered, ...stuck];
}

/** The Outpost JSON document of these items (parents are named by uuid; one not exported by none). */
export function exportDocument(
  items: readonly ExportSource[],
  user: { id: number; name: string } | null,
  now: Date,
): ExportDocument {
  const byId = new Map(items.map((i) => [i.id, i]));
  const order = exportOrder(items);
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
        parent_uuid: parent ? uuidOf(parent) : null,
        type: i.type,
        ...exportedFields(i),
        created_at: i.created_at,
        updated_at: i.updated_at,
        completed_at: i.completed_at,
        comments: commentsOf(i),
        time_entries: timeEntriesOf(i),
        attachments: attachmentsOf(i),
        ...(i.type === 'campaign' && i.members
          ? {
              members: i.members.map((m) => ({
                name: m.name,
                phone: m.phone === '' ? null : m.phone,
                role: m.role,
              })),
            }
          : {}),
      };
    }),
  };
}

/** A declared field's value as a CSV cell's text: none as empty, a list (labels) joined by LABEL_SEPARATOR. */
function cellOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.join(LABEL_SEPARATOR);
  return String(value);
}

/** Outpost CSV (CSV_COLUMNS), parents before children, in the order the items were made. */
export function exportCsv(items: readonly ExportSource[]): string {
  const byId = new Map(items.map((i) => [i.id, i]));
  const rows = exportOrder(items).map((i) => {
    const parent = i.parent_id === null ? undefined : byId.get(i.parent_id);
    const cells: Record<string, string> = {
      type: i.type,
      parent_title: parent?.title ?? '',
      uuid: uuidOf(i),
      parent_uuid: parent ? uuidOf(parent) : '',
    };
    for (const f of fieldsWith('csv')) cells[f] = cellOf(exportValueOf(i, f));
    return CSV_COLUMNS.map((c) => cells[c] ?? '');
  });
  return Papa.unparse(
    { fields: [...CSV_COLUMNS], data: rows.map((row) => row.map(csvCell)) },
    { newline: '\r\n' },
  );
}

/** The download name for an export made at `now`: outpost-YYYY-MM-DD.json (or .csv, or .zip with files). */
export function exportFileName(now: Date, extension: 'json' | 'csv' | 'zip'): string {
  return `outpost-${now.toISOString().slice(0, 10)}.${extension}`;
}

// ---------------------------------------------------------------------------------------------
// Import
// ---------------------------------------------------------------------------------------------

/**
 * What each schema key's reader (FIELD_READERS) makes of a file's value: none is null where the
 * device picks then (its own zone; a place after the last sibling's), the default where there is one.
 */
interface ReadValues {
  /** The person the file's assignee names (see readAssignee). */
  ref: number | null;
  date: string | null;
  /** An ISO 8601 instant in UTC, as the API stores it. */
  instant: string | null;
  /** The rule in its stored spelling (formatRecurrence). */
  recurrence: string | null;
  seriesUuid: string | null;
  /** The IANA zone the file gives; null when it gives none (Todoist, older files): the device's own then. */
  timeZone: string | null;
  /** 1–4; p4 (none) when the file gives none. */
  priority: Priority;
  /** As the file writes them, those that may be labels, the first of any two alike ignoring case. */
  labels: string[];
  /** The place the file gives; null when none (or not a key): after its last sibling's then. */
  sortKey: string | null;
  shortText: string | null;
  minutes: number | null;
}
type ReaderKey = Exclude<FieldSchemaKey, 'title' | 'description' | 'status'>;
type ReadValue<F extends MoreField> = ReadValues[Fields[F]['schema'] & ReaderKey];

/** One item an import will create, parents first; `parent_uuid` names an item of the plan or one already stored. */
export type ImportItem = { [F in MoreField]: ReadValue<F> } & {
  uuid: string;
  parent_uuid: string | null;
  type: ItemType;
  title: string;
  description: string | null;
  status: ItemStatus;
};

export interface ImportProblem {
  /** 1-based line (CSV) or item number (JSON). */
  line: number;
  text: string;
  reason: string;
}

export type ImportSource = 'outpost-json' | 'outpost-csv' | 'todoist-csv';

/**
 * A comment an import restores on an item of the plan, written by the importer: Outpost writes a
 * comment only as the person who sends it, so one by somebody else begins with who wrote it and when.
 */
export interface ImportComment {
  uuid: string;
  item_uuid: string;
  body: string;
  /** Who wrote it in the file. */
  author: string;
  created_at: string;
}

/**
 * A time entry an import restores on an item of the plan (SYNC.md T3): only the importer's own, by
 * its uuid, through the normal write path (time is only ever tracked by its person).
 */
export interface ImportTimeEntry {
  uuid: string;
  item_uuid: string;
  started_at: string;
  ended_at: string;
  note: string;
}

/**
 * A file an import attaches again to an item of the plan (an Outpost zip export's `files/`), as a new
 * upload by the importer: `path` names its bytes in the zip; without them (a bare JSON export) it is
 * listed and left out.
 */
export interface ImportAttachment {
  uuid: string;
  item_uuid: string;
  name: string;
  type: string;
  size: number;
  sha256: string | null;
  path: string | null;
}

export interface ImportPlan {
  source: ImportSource | null;
  items: ImportItem[];
  counts: Record<ItemType, number>;
  /** Comments to restore on the plan's items (Outpost JSON only), in the file's order. */
  comments: ImportComment[];
  /** The importer's finished time entries to restore on the plan's items (Outpost JSON only). */
  time_entries: ImportTimeEntry[];
  /** Files the file lists on the plan's items (Outpost JSON only; their bytes come with a zip). */
  attachments: ImportAttachment[];
  /** Lines (or items) left out, with why. */
  problems: ImportProblem[];
  /** Lines imported with something changed (an unknown status read as pending…), with what. */
  warnings: ImportProblem[];
  /** The line (CSV) or item number (JSON) each of `items` came from, for warnings found later. */
  lines: number[];
  /** Why nothing can be imported (empty, unreadable, wrong shape); null when the plan may be run. */
  error: string | null;
}

export interface ImportOptions {
  fileName: string;
  /** Who imports: 0 for a guest. An Outpost JSON of another account gets derived uuids. */
  userId: number;
  /**
   * When and where the file is read: Todoist's dates in words ('every day', '4 Jan', 'in 5 days')
   * count from `now` in `timeZone` (the quick-add reader). Without them only calendar dates are read.
   */
  now?: Date;
  timeZone?: string;
  /** Whom the importer may assign to: a file's assignee is found among them by name. */
  people?: readonly { id: number; name: string }[];
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
  return {
    source,
    items: [],
    counts: { campaign: 0, task: 0, todo: 0 },
    comments: [],
    time_entries: [],
    attachments: [],
    problems,
    warnings: [],
    lines: [],
    error,
  };
}

function finish(
  source: ImportSource,
  placed: { items: ImportItem[]; lines: number[] },
  problems: ImportProblem[],
  warnings: ImportProblem[] = [],
  comments: ImportComment[] = [],
  timeEntries: ImportTimeEntry[] = [],
  attachments: ImportAttachment[] = [],
): ImportPlan {
  const { items, lines } = placed;
  const counts: Record<ItemType, number> = { campaign: 0, task: 0, todo: 0 };
  for (const item of items) counts[item.type] += 1;
  const error =
    items.length === 0
      ? problems.length > 0
        ? 'No line of this file could be read as an item.'
        : 'This file holds no items.'
      : null;
  const placedUuids = new Set(items.map((i) => i.uuid));
  return {
    source,
    items,
    counts,
    comments: comments.filter((c) => placedUuids.has(c.item_uuid)),
    time_entries: timeEntries.filter((e) => placedUuids.has(e.item_uuid)),
    attachments: attachments.filter((f) => placedUuids.has(f.item_uuid)),
    problems,
    warnings,
    lines,
    error,
  };
}

/** The words people write for a status (a spreadsheet's 'Done', 'In progress'), spaces for - and _. */
const STATUS_WORDS: Record<string, ItemStatus> = {
  pending: 'pending',
  todo: 'pending',
  'to do': 'pending',
  open: 'pending',
  'not started': 'pending',
  queued: 'pending',
  in_progress: 'in_progress',
  'in progress': 'in_progress',
  doing: 'in_progress',
  started: 'in_progress',
  active: 'in_progress',
  completed: 'completed',
  complete: 'completed',
  done: 'completed',
  finished: 'completed',
  closed: 'completed',
};

/** A status read from a file: '' is pending, a word it does not know is null (the caller says so). */
export function readStatus(text: string): ItemStatus | null {
  const word = text
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
  if (word === '') return 'pending';
  return STATUS_WORDS[word] ?? STATUS_WORDS[word.replaceAll(' ', '_')] ?? null;
}

/** A reminder read from a file: an ISO 8601 instant with a zone, as the API takes it; else null. */
export function readInstant(text: string): string | null {
  const value = text.trim();
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i.test(value))
    return null;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : new Date(at).toISOString();
}

/** What a reader knows besides the value: the item read so far, how to say a problem, whom it may name. */
interface ReadContext {
  /** The field as a warning names it ('due date', 'reminder', 'time zone'). */
  noun: string;
  /** The item's type and the fields read before this one (in declaration order). */
  item: { type: ItemType } & Partial<Record<MoreField, unknown>>;
  people: readonly { id: number; name: string }[];
  warn: (reason: string) => void;
}

/** A file's text for a field; none for anything else or only white space. */
const givenText = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value : null;

/**
 * How an import reads each schema key's value from a file (an Outpost JSON value or a CSV cell's
 * text). Something there that cannot be used is left out (or read as the default) and said in `warn`.
 */
const FIELD_READERS: { [K in ReaderKey]: (value: unknown, ctx: ReadContext) => ReadValues[K] } = {
  ref: (value, { people, warn }) =>
    readAssignee(typeof value === 'number' ? value : typeof value === 'string' ? value : null, people, warn),
  date: (value, { noun, warn }) => {
    const text = givenText(value);
    const date = text === null ? null : readDate(text);
    if (text !== null && date === null) warn(`Its ${noun} “${shorten(text)}” is not a date: left out`);
    return date;
  },
  instant: (value, { noun, warn }) => {
    const text = givenText(value);
    const instant = text === null ? null : readInstant(text);
    if (text !== null && instant === null)
      warn(`Its ${noun} “${shorten(text)}” is not a date and time: left out`);
    return instant;
  },
  recurrence: (value, { item, warn }) => {
    const rule = givenText(value);
    if (rule === null) return null;
    const parsed = parseRecurrence(rule);
    const due_date = typeof item.due_date === 'string' ? item.due_date : null;
    // An end already past is no reason to refuse a rule an exported item had: judged as stored.
    const problem = parsed.ok
      ? recurrenceProblem({ type: item.type, due_date, recurrence: rule }, '0000-00-00')
      : parsed.message;
    if (problem === null && parsed.ok) return formatRecurrence(parsed.rule);
    warn(`Its repeat rule cannot be used (${problem}): left out`);
    return null;
  },
  seriesUuid: (value) => {
    const series = givenText(value);
    return series !== null && UUID.test(series.trim()) ? series.trim().toLowerCase() : null;
  },
  timeZone: (value, { noun, warn }) => {
    const zone = givenText(value);
    const time_zone = zone === null ? null : normalizeTimeZone(zone);
    if (zone !== null && time_zone === null)
      warn(`Its ${noun} “${shorten(zone)}” is not an IANA time zone: left out`);
    return time_zone;
  },
  priority: (value, { warn }) => {
    const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
    if (text === '') return DEFAULT_PRIORITY;
    const n = Number(text);
    if ((PRIORITIES as readonly number[]).includes(n)) return n as Priority;
    warn(`Its priority “${shorten(text)}” is not 1, 2, 3 or 4: imported as 4`);
    return DEFAULT_PRIORITY;
  },
  labels: (value, { warn }) => {
    // A list (JSON) or the CSV cell's text (LABEL_SEPARATOR between them).
    const given =
      typeof value === 'string'
        ? value.split(',')
        : Array.isArray(value)
          ? value.map((l) => (typeof l === 'string' ? l : String(l)))
          : [];
    const labels: string[] = [];
    for (const text of given) {
      const label = text.trim();
      if (label === '' && typeof value === 'string') continue;
      const problem = labelProblem(label);
      if (problem) warn(`Its label “${shorten(label)}” cannot be used (${problem}): left out`);
      else if (labels.some((l) => labelKey(l) === labelKey(label))) continue;
      else if (labels.length >= LABELS_MAX)
        warn(`Its label “${shorten(label)}” is past the ${LABELS_MAX}th: left out`);
      else labels.push(label);
    }
    return labels;
  },
  sortKey: (value, { warn }) => {
    const key = typeof value === 'string' ? value.trim() : '';
    const sort_key = key !== '' && SORT_KEY_PATTERN.test(key) && isFractionalKey(key) ? key : null;
    if (key !== '' && sort_key === null) warn(`Its place “${shorten(key)}” is not a sort key: placed last`);
    return sort_key;
  },
  minutes: (value, { noun, warn }) => {
    const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
    if (text === '') return null;
    // A file's number of minutes, or a duration as a person writes it ('1h 30m').
    const minutes = parseDuration(text);
    if (minutes === null) warn(`Its ${noun} “${shorten(text)}” is not a number of minutes: left out`);
    return minutes;
  },
  shortText: (value, { noun, warn }) => {
    const text = typeof value === 'string' ? value.trim() : '';
    if (text === '') return null;
    if (text.length <= SHORT_TEXT_MAX) return text;
    warn(`Its ${noun} “${shorten(text)}” is longer than ${SHORT_TEXT_MAX} characters: cut`);
    return text.slice(0, SHORT_TEXT_MAX);
  },
};

/**
 * The declared fields beyond title, type, status and parent (MORE_FIELDS), each read from the
 * file's value by its schema key's reader, in declaration order: what cannot be used is left out
 * and said in `warn`, and the rest of the item still comes in.
 */
function readMore(
  raw: Partial<Record<MoreField, unknown>>,
  type: ItemType,
  warn: (reason: string) => void,
  people: readonly { id: number; name: string }[] = [],
): { [F in MoreField]: ReadValue<F> } {
  const item: ReadContext['item'] = { type };
  for (const field of MORE_FIELDS) {
    const { schema, label } = ITEM_FIELDS[field];
    const noun = (label ?? field.replaceAll('_', ' ')).toLowerCase();
    const read = FIELD_READERS[schema as ReaderKey] as (value: unknown, ctx: ReadContext) => unknown;
    item[field] = read(raw[field] ?? null, { noun, item, people, warn });
  }
  // D10: a start after the due date is the file's slip; the due date is the one kept.
  const problem = spanProblem(item.start_date as string | null, item.due_date as string | null);
  if (problem) {
    warn(`Its start date ${String(item.start_date)} is after its due date: left out`);
    item.start_date = null;
  }
  const { type: _type, ...more } = item;
  return more as { [F in MoreField]: ReadValue<F> };
}

/**
 * What the device's create gets for an item of the plan: every declared field it read, less a none
 * (null) of a field whose default is not none, which the device picks then (its own zone, a place
 * after the last sibling's). Its parent is the caller's to name.
 */
export function importCreateFields(item: ImportItem): Omit<ImportItem, 'uuid' | 'parent_uuid' | 'type'> {
  const out: Record<string, unknown> = {
    title: item.title,
    description: item.description,
    status: item.status,
  };
  for (const field of MORE_FIELDS) {
    const value = item[field];
    if (value === null && ITEM_FIELDS[field].default !== null) continue;
    out[field] = value;
  }
  return out as Omit<ImportItem, 'uuid' | 'parent_uuid' | 'type'>;
}

/**
 * The person a file's assignee names: by name among `people` (exactly one, ignoring case when no name
 * matches exactly); a bare number is an older file's user id, kept for the device to check. Anyone
 * else is left out and said in `warn`.
 */
function readAssignee(
  value: string | number | null,
  people: readonly { id: number; name: string }[],
  warn: (reason: string) => void,
): number | null {
  const text = typeof value === 'number' ? String(value) : (value ?? '').trim();
  if (text === '') return null;
  if (/^\d{1,9}$/.test(text)) {
    if (Number(text) > 0) return Number(text);
    warn(`Its assignee “${shorten(text)}” is not a user id: left out`);
    return null;
  }
  const exact = people.filter((p) => p.name === text);
  const found = exact.length > 0 ? exact : people.filter((p) => p.name.toLowerCase() === text.toLowerCase());
  const ids = [...new Set(found.map((p) => p.id))];
  if (ids.length === 1) return ids[0]!;
  warn(
    ids.length > 1
      ? `Its assignee “${shorten(text)}” names more than one person you can assign: imported unassigned`
      : `Its assignee “${shorten(text)}” is not someone you can assign here: imported unassigned`,
  );
  return null;
}

/** A line of a file read into an item, before its place among the others is checked. */
interface ReadEntry extends ImportItem {
  line: number;
  text: string;
}

/**
 * The plan's items from what the lines gave: parents first, a parent of the wrong type, in a loop or
 * itself left out makes a problem of its children too (never a silent move to the top level). A
 * parent_uuid that names no line names an item already stored.
 */
function placeEntries(
  entries: readonly ReadEntry[],
  problems: ImportProblem[],
): { items: ImportItem[]; lines: number[] } {
  const byUuid = new Map(entries.map((e) => [e.uuid, e]));
  const { ordered, stuck } = parentsFirst(
    entries,
    (e) => e.uuid,
    (e) => e.parent_uuid,
  );
  for (const entry of stuck)
    problems.push({ line: entry.line, text: entry.text, reason: 'Its parents form a loop' });
  const placed = new Set<string>();
  const items: ImportItem[] = [];
  const lines: number[] = [];
  for (const entry of ordered) {
    const parent = entry.parent_uuid === null ? undefined : byUuid.get(entry.parent_uuid);
    const allowed: readonly ItemType[] = ALLOWED_PARENT_TYPES[entry.type];
    if (parent && !placed.has(parent.uuid)) {
      problems.push({ line: entry.line, text: entry.text, reason: 'Its parent could not be imported' });
      continue;
    }
    if (parent && !allowed.includes(parent.type)) {
      problems.push({
        line: entry.line,
        text: entry.text,
        reason: `A ${entry.type} cannot be placed under a ${parent.type}`,
      });
      continue;
    }
    const { line, text: _text, ...item } = entry;
    placed.add(item.uuid);
    items.push(item);
    lines.push(line);
  }
  problems.sort((a, b) => a.line - b.line);
  return { items, lines };
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
  const owner = shape.user as { id?: unknown; name?: unknown } | null | undefined;
  const ownerId = typeof owner?.id === 'number' ? owner.id : 0;
  // Whose comments are the importer's own: the exporter's, in their own file (a guest's are all theirs).
  const ownerName = ownerId === 0 ? null : typeof owner?.name === 'string' ? owner.name : '';
  const comments: ImportComment[] = [];
  const timeEntries: ImportTimeEntry[] = [];
  const attachments: ImportAttachment[] = [];
  // Another account's items become new items: their uuids are derived, so a second import of the same
  // file derives the same ones and doubles nothing. A guest's export (id 0) is anyone's own.
  const foreign = ownerId !== 0 && ownerId !== options.userId;
  const mapUuid = (uuid: string) =>
    foreign ? uuidV5(`account:${ownerId}:${uuid}`, IMPORT_NAMESPACE) : uuid.toLowerCase();
  const problems: ImportProblem[] = [];
  const warnings: ImportProblem[] = [];
  const read: ReadEntry[] = [];
  const firstOf = new Map<string, number>();
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
    const uuid = mapUuid(item.uuid);
    const first = firstOf.get(uuid);
    if (first !== undefined) {
      problems.push({ line, text: label, reason: `The same uuid as item ${first}` });
      return;
    }
    firstOf.set(uuid, line);
    const statusText = typeof item.status === 'string' ? item.status : '';
    let status = readStatus(statusText);
    if (status === null) {
      warnings.push({
        line,
        text: label,
        reason: `Unknown status “${shorten(statusText)}”: imported as pending`,
      });
      status = 'pending';
    }
    const parent =
      typeof item.parent_uuid === 'string' && UUID.test(item.parent_uuid) ? item.parent_uuid : null;
    const description = typeof item.description === 'string' ? item.description : null;
    const more = readMore(
      item as Partial<Record<MoreField, unknown>>,
      item.type as ItemType,
      (reason) => warnings.push({ line, text: label, reason }),
      options.people,
    );
    const warn = (reason: string) => warnings.push({ line, text: label, reason });
    comments.push(...readComments(item.comments, uuid, { own: !foreign, ownerName, mapUuid }, warn));
    timeEntries.push(
      ...readTimeEntries(item.time_entries, uuid, { own: !foreign, ownerName, mapUuid }, warn),
    );
    attachments.push(...readAttachments(item.attachments, uuid, mapUuid, warn));
    if (item.type === 'campaign') membersLeftOut(item.members, !foreign, warn);
    read.push({
      line,
      text: label,
      uuid,
      parent_uuid: parent === null ? null : mapUuid(parent),
      type: item.type as ItemType,
      ...fitText(item.title, description),
      status,
      ...more,
      series_uuid: more.series_uuid === null ? null : mapUuid(more.series_uuid),
    });
  });
  return finish(
    'outpost-json',
    placeEntries(read, problems),
    problems,
    warnings,
    comments,
    timeEntries,
    attachments,
  );
}

const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

/**
 * An item's comments from an Outpost JSON file, to be written by the importer. The importer's own
 * (their own file, by them; a guest's file) keep their uuid and body, so a second import doubles
 * nothing. One by someone else cannot be written as them: it is restored as the importer's, its body
 * beginning with who wrote it and when, under a uuid derived from its own, and the preview says so.
 */
function readComments(
  given: unknown,
  itemUuid: string,
  file: { own: boolean; ownerName: string | null; mapUuid: (uuid: string) => string },
  warn: (reason: string) => void,
): ImportComment[] {
  if (given === undefined || given === null) return [];
  if (!Array.isArray(given)) {
    warn('Its comments are not a list: left out');
    return [];
  }
  const out: ImportComment[] = [];
  let unreadable = 0;
  let others = 0;
  let cut = 0;
  for (const raw of given) {
    const c = raw as Partial<Record<keyof ExportComment, unknown>> | null;
    if (
      typeof c !== 'object' ||
      c === null ||
      typeof c.uuid !== 'string' ||
      !UUID.test(c.uuid) ||
      typeof c.body !== 'string' ||
      c.body.trim() === '' ||
      typeof c.author !== 'string'
    ) {
      unreadable += 1;
      continue;
    }
    const created_at = typeof c.created_at === 'string' ? c.created_at : '';
    const mine = file.own && (file.ownerName === null || c.author === file.ownerName);
    const uuid = file.mapUuid(c.uuid);
    let body = escapeTypedTokens(c.body);
    if (!mine) {
      others += 1;
      const when = readInstant(created_at);
      body = `${c.author.trim() || 'Someone'} wrote${when ? ` on ${when.slice(0, 16).replace('T', ' ')} UTC` : ''}:\n${body}`;
    }
    if (body.length > COMMENT_BODY_MAX) {
      cut += 1;
      body = `${body.slice(0, COMMENT_BODY_MAX - 1)}…`;
    }
    out.push({
      uuid: mine ? uuid : uuidV5(`comment-by:${c.author}:${uuid}`, IMPORT_NAMESPACE),
      item_uuid: itemUuid,
      body,
      author: c.author,
      created_at,
    });
  }
  if (others > 0)
    warn(
      `${plural(others, 'comment')} by others restored as yours, each beginning with who wrote it and when (Outpost writes a comment only as the person who adds it)`,
    );
  if (cut > 0)
    warn(`${plural(cut, 'comment')} cut to ${COMMENT_BODY_MAX.toLocaleString('en-US')} characters`);
  if (unreadable > 0) warn(`${plural(unreadable, 'comment')} could not be read: left out`);
  return out;
}

/**
 * T3: an item's time entries from an Outpost JSON file. The file's owner's come back as the
 * importer's, finished: in their own file (or a guest's) under their uuid, from another account's
 * file (the same person moving, most often) under a uuid derived from it, which the preview says;
 * either way a second import doubles nothing. An entry is only ever its person's time, so one by
 * somebody else is left out and the preview says so, as is a timer that was still running.
 */
function readTimeEntries(
  given: unknown,
  itemUuid: string,
  file: { own: boolean; ownerName: string | null; mapUuid: (uuid: string) => string },
  warn: (reason: string) => void,
): ImportTimeEntry[] {
  if (given === undefined || given === null) return [];
  if (!Array.isArray(given)) {
    warn('Its time entries are not a list: left out');
    return [];
  }
  const out: ImportTimeEntry[] = [];
  let unreadable = 0;
  let others = 0;
  let running = 0;
  let moved = 0;
  for (const raw of given) {
    const e = raw as Partial<Record<keyof ExportTimeEntry, unknown>> | null;
    const started = typeof e?.started_at === 'string' ? readInstant(e.started_at) : null;
    const ended = typeof e?.ended_at === 'string' ? readInstant(e.ended_at) : null;
    if (
      typeof e !== 'object' ||
      e === null ||
      typeof e.uuid !== 'string' ||
      !UUID.test(e.uuid) ||
      typeof e.author !== 'string' ||
      started === null ||
      (e.ended_at !== null && ended === null) ||
      (ended !== null && entryProblem(started, ended) !== null)
    ) {
      unreadable += 1;
      continue;
    }
    if (file.ownerName !== null && e.author !== file.ownerName) {
      others += 1;
      continue;
    }
    if (ended === null) {
      running += 1;
      continue;
    }
    if (!file.own) moved += 1;
    const note = typeof e.note === 'string' ? e.note.slice(0, TIME_NOTE_MAX) : '';
    out.push({ uuid: file.mapUuid(e.uuid), item_uuid: itemUuid, started_at: started, ended_at: ended, note });
  }
  if (moved > 0)
    warn(`${plural(moved, 'time entry', 'time entries')} by ${file.ownerName} restored as yours`);
  if (others > 0)
    warn(
      `${plural(others, 'time entry', 'time entries')} by others left out (time is only ever its person’s)`,
    );
  if (running > 0) warn(`${plural(running, 'running timer')} left out: stop it and export again`);
  if (unreadable > 0) warn(`${plural(unreadable, 'time entry', 'time entries')} could not be read: left out`);
  return out;
}

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * An item's files from an Outpost JSON file: each as the file lists it, its name cleaned as an upload's
 * is; one that cannot be read is counted and left out. Whether its bytes came along is the device's
 * question (a zip's `files/`), not the JSON's.
 */
function readAttachments(
  given: unknown,
  itemUuid: string,
  mapUuid: (uuid: string) => string,
  warn: (reason: string) => void,
): ImportAttachment[] {
  if (given === undefined || given === null) return [];
  if (!Array.isArray(given)) {
    warn('Its files are not a list: left out');
    return [];
  }
  const out: ImportAttachment[] = [];
  let unreadable = 0;
  for (const raw of given) {
    const f = raw as Partial<Record<keyof ExportAttachment, unknown>> | null;
    if (
      typeof f !== 'object' ||
      f === null ||
      typeof f.uuid !== 'string' ||
      !UUID.test(f.uuid) ||
      typeof f.name !== 'string' ||
      typeof f.size !== 'number' ||
      !Number.isSafeInteger(f.size) ||
      f.size < 0
    ) {
      unreadable += 1;
      continue;
    }
    const sha = typeof f.sha256 === 'string' ? f.sha256.toLowerCase() : '';
    out.push({
      uuid: mapUuid(f.uuid),
      item_uuid: itemUuid,
      name: cleanFileName(f.name),
      type: typeof f.type === 'string' ? f.type : '',
      size: f.size,
      sha256: SHA256.test(sha) ? sha : null,
      path: typeof f.path === 'string' && f.path !== '' ? f.path : null,
    });
  }
  if (unreadable > 0) warn(`${plural(unreadable, 'file')} could not be read: left out`);
  return out;
}

/** T3: how many time entries an import restores and their minutes (the preview's line). */
export function importTimeSummary(entries: readonly ImportTimeEntry[]): { count: number; minutes: number } {
  let minutes = 0;
  for (const e of entries) minutes += minutesOf(e.started_at, e.ended_at);
  return { count: entries.length, minutes };
}

/**
 * A campaign's members cannot come back with an import: only its owner may share it, each person
 * must be their mutual contact, and the importer is the new campaign's owner. Who is not added is
 * listed (the importer themself, the owner of their own file, is not).
 */
function membersLeftOut(given: unknown, own: boolean, warn: (reason: string) => void): void {
  if (!Array.isArray(given)) return;
  const people = given.flatMap((raw) => {
    const m = raw as Partial<Record<keyof ExportMember, unknown>> | null;
    if (typeof m !== 'object' || m === null || typeof m.name !== 'string') return [];
    const role = typeof m.role === 'string' ? m.role : 'member';
    if (own && role === 'owner') return [];
    return [`${shorten(m.name)} (${role})`];
  });
  if (people.length === 0) return;
  warn(`${plural(people.length, 'member')} not added: ${people.join(', ')} (share the campaign again)`);
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
  const column = (name: string) => header.indexOf(name);
  const problems: ImportProblem[] = [];
  const warnings: ImportProblem[] = [];
  const entries: ReadEntry[] = [];
  const seen = new Map<string, number>();
  const source = `outpost-csv:${options.fileName}`;
  const cUuid = column('uuid');
  // Which uuids the file holds, so a parent_uuid may name a line further down.
  const fileUuids = new Set(
    rows
      .slice(1)
      .map((row) => readCsvCell((row[cUuid] ?? '').trim()).toLowerCase())
      .filter((u) => UUID.test(u)),
  );
  const firstOf = new Map<string, number>();
  // Files without uuids (made by hand) name a parent by title: the nearest line above with it.
  const byTitle = new Map<string, ReadEntry>();
  rows.slice(1).forEach((row, index) => {
    const line = index + 2;
    const cell = (name: string) => {
      const c = column(name);
      return c < 0 ? '' : readCsvCell(row[c] ?? '');
    };
    const get = (name: string) => {
      const c = column(name);
      return c < 0 ? '' : readCsvCell((row[c] ?? '').trim());
    };
    if (row.every((f) => f.trim() === '')) return;
    const text = shorten(row.join(','));
    const type = get('type').toLowerCase();
    if (!(ITEM_TYPES as readonly string[]).includes(type)) {
      problems.push({ line, text, reason: type === '' ? 'No type' : `Unknown type “${shorten(type)}”` });
      return;
    }
    const title = get('title');
    if (title === '') {
      problems.push({ line, text, reason: 'No title' });
      return;
    }
    const uuidText = get('uuid').toLowerCase();
    if (uuidText !== '' && !UUID.test(uuidText)) {
      problems.push({ line, text, reason: `Its uuid “${shorten(uuidText)}” is not a uuid` });
      return;
    }
    const first = uuidText === '' ? undefined : firstOf.get(uuidText);
    if (first !== undefined) {
      problems.push({ line, text, reason: `The same uuid as line ${first}` });
      return;
    }
    const parentTitle = get('parent_title');
    const parentUuidText = get('parent_uuid').toLowerCase();
    const parentUuid = UUID.test(parentUuidText) ? parentUuidText : null;
    const titled = parentTitle === '' ? undefined : byTitle.get(parentTitle);
    let parent: string | null = null;
    if (parentUuid !== null && fileUuids.has(parentUuid)) parent = parentUuid;
    else if (titled) parent = titled.uuid;
    else if (parentUuid !== null) parent = parentUuid;
    else if (parentTitle !== '') {
      problems.push({
        line,
        text,
        reason: `Its parent “${shorten(parentTitle)}” is not above it in the file`,
      });
      return;
    }
    const statusText = get('status');
    let status = readStatus(statusText);
    if (status === null) {
      warnings.push({ line, text, reason: `Unknown status “${shorten(statusText)}”: imported as pending` });
      status = 'pending';
    }
    const description = cell('description');
    const entry: ReadEntry = {
      line,
      text,
      uuid: uuidText || csvUuid(source, parent, type as ItemType, title, seen),
      parent_uuid: parent,
      type: type as ItemType,
      ...fitText(title, description.trim() === '' ? null : description),
      status,
      ...readMore(
        Object.fromEntries(MORE_FIELDS.map((f) => [f, get(f)])),
        type as ItemType,
        (reason) => warnings.push({ line, text, reason }),
        options.people,
      ),
    };
    firstOf.set(entry.uuid, line);
    entries.push(entry);
    byTitle.set(title, entry);
  });
  return finish('outpost-csv', placeEntries(entries, problems), problems, warnings);
}

/** An item's declared fields beyond its head when a file gives none of them (a Todoist line's, before its own). */
const nothingMore = () => readMore({}, 'task', () => {});

const NO_DATE = { due_date: null, remind_at: null, recurrence: null } as const;

/**
 * Todoist's DATE: a calendar date, or (with `now` and `timeZone`) words the quick-add reader takes
 * whole ('every day', 'every mon at 9am', '4 Jan', 'in 5 days'); anything else reads as none.
 */
function todoistDate(
  text: string,
  options: ImportOptions,
): { due_date: string | null; remind_at: string | null; recurrence: string | null } {
  const date = readDate(text);
  if (date !== null || text === '') return { ...NO_DATE, due_date: date };
  if (!options.now || !options.timeZone) return NO_DATE;
  const reading = readQuickAdd(text, { now: options.now, timeZone: options.timeZone });
  const onlyWhen = reading.parts.every((p) => p.kind === 'date' || p.kind === 'repeat');
  if (reading.title !== '' || !onlyWhen || reading.due_date === null) return NO_DATE;
  return { due_date: reading.due_date, remind_at: reading.remind_at, recurrence: reading.recurrence };
}

/** Todoist's DEADLINE: a calendar date, or a day in words (no repeat, no time: a deadline has none). */
function todoistDeadline(text: string, options: ImportOptions): string | null {
  const read = todoistDate(text, options);
  return read.recurrence === null ? read.due_date : null;
}

/**
 * Todoist's PRIORITY column as its CSV writes it: the screen's numbering, 1 is p1 (urgent) and 4 is
 * p4 (none, the default), as ours (ARCHITECTURE §5; its REST API is the one that counts the other
 * way). Empty reads as none; anything else reads as none and is listed.
 */
function todoistPriority(text: string, warn: (reason: string) => void): Priority {
  if (text === '') return DEFAULT_PRIORITY;
  const n = Number(text);
  if ((PRIORITIES as readonly number[]).includes(n) && /^\d$/.test(text)) return n as Priority;
  warn(`Priority “${shorten(text)}” is not 1–4 (Todoist's p1–p4): imported as p4`);
  return DEFAULT_PRIORITY;
}

/** A Todoist label in a task's CONTENT: `@name` at the start or after a space (an email's @ is not one). */
const TODOIST_LABEL = /(^|\s)@([^\s@]+)/g;

/**
 * Todoist writes a task's labels into its CONTENT as `@name`: each that may be an Outpost label
 * becomes one and leaves the title; one that may not stays in the title. Both are said in `warn`.
 */
export function todoistLabels(
  content: string,
  warn: (reason: string) => void,
): { title: string; labels: string[] } {
  const labels: string[] = [];
  const kept: string[] = [];
  const title = content
    .replace(TODOIST_LABEL, (whole, before: string, name: string) => {
      const problem = labelProblem(name);
      if (problem !== null || labels.length >= LABELS_MAX) {
        kept.push(
          `@${name}${problem ? ` (${problem.replace(/\.$/, '')})` : ` (past the ${LABELS_MAX}th label)`}`,
        );
        return whole;
      }
      if (!labels.some((l) => labelKey(l) === labelKey(name))) labels.push(name);
      return before;
    })
    .replace(/\s+/g, ' ')
    .trim();
  // A CONTENT of labels alone keeps its text as the title: an item needs one.
  if (title === '') return { title: content, labels: [] };
  if (labels.length > 0)
    warn(
      `Todoist label${labels.length > 1 ? 's' : ''} ${labels.map((l) => `@${shorten(l)}`).join(', ')} imported as label${labels.length > 1 ? 's' : ''} ${labels.map((l) => `“${shorten(l)}”`).join(', ')}`,
    );
  for (const label of kept)
    warn(`Todoist label ${shorten(label)} kept in the title: it cannot be an Outpost label`);
  return { title, labels };
}

/**
 * What a Todoist task line holds that Outpost does not take, each said in words for the preview:
 * nothing is left out unseen (a date it cannot read, a deadline, a person, a duration).
 */
function todoistLeftOut(
  get: (column: string) => string,
  read: { date: boolean; deadline: string | null; words: boolean },
): string[] {
  const reasons: string[] = [];
  const date = get('date');
  const language = get('date_lang').toLowerCase();
  if (date !== '' && !read.date) {
    reasons.push(
      language !== '' && language !== 'en'
        ? `Date “${shorten(date)}” not imported: dates in words are read in English only (this one is “${shorten(language)}”)`
        : /\bevery\b/i.test(date)
          ? `Repeating date “${shorten(date)}” not imported: set the repeat on the item`
          : read.words
            ? `Date “${shorten(date)}” not imported: it is not a date Outpost reads (2030-05-01, 1 May 2030, tomorrow, every day)`
            : `Date “${shorten(date)}” not imported: only calendar dates (2030-05-01, 1 May 2030) are read`,
    );
  }
  const deadline = get('deadline');
  if (deadline !== '' && read.deadline === null)
    reasons.push(`Deadline “${shorten(deadline)}” not imported: it is not a date`);
  else if (read.deadline !== null && read.date)
    reasons.push(
      `Deadline ${read.deadline} kept as its end date, which a task's page does not show: its due date is its DATE`,
    );
  const responsible = get('responsible');
  if (responsible !== '')
    reasons.push(`Assignee “${shorten(responsible)}” not imported: assign it in Outpost`);
  const duration = get('duration');
  if (duration !== '') {
    const unit = get('duration_unit');
    reasons.push(`Duration ${shorten(unit ? `${duration} ${unit}` : duration)} not imported`);
  }
  return reasons;
}

/**
 * Todoist's CSV export (TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,…,DATE,…,DEADLINE) into Outpost's
 * three levels (campaign › task › todo):
 * - the file becomes a campaign named after it;
 * - a `section` row becomes a task, and every task line under it (until the next section) a todo of
 *   that task, whatever its INDENT: a section's tasks go under it (ARCHITECTURE §5);
 * - outside a section, an INDENT 1 task is a task, and INDENT 2–4 tasks are todos of the task above;
 * - a todo cannot hold todos, so a line nested deeper than Outpost allows (INDENT 3–4, or INDENT 2
 *   inside a section) becomes a todo beside the one it was under, and the preview says so, naming it;
 * - `note` rows are appended to the description of the item above;
 * - PRIORITY is the priority as written (1 is p1, 4 the default p4); `@labels` in CONTENT become
 *   labels; each TIMEZONE is noted (dates are read in the device's zone); DATE is read as quick add reads it (a calendar date, or words:
 *   'tomorrow', 'every mon', 'every day at 9am' give a due date, a rule and a reminder);
 * - DEADLINE (the day it must be done by) is the end date; without a DATE it is the due date too, so
 *   Today and Upcoming show it.
 * Whatever else a line holds (a person, a duration, a date it cannot read) is listed in the preview's
 * warnings, never dropped silently.
 */
function parseTodoist(rows: string[][], header: string[], options: ImportOptions): ImportPlan {
  const col = (name: string) => header.indexOf(name);
  const cType = col('type');
  const cContent = col('content');
  const cDesc = col('description');
  const cIndent = col('indent');
  const name = options.fileName.replace(/\.[^.]+$/, '').trim() || 'Todoist import';
  const source = `todoist:${options.fileName}`;
  const seen = new Map<string, number>();
  const campaign: ImportItem = {
    uuid: uuidV5(`${source}:campaign`, IMPORT_NAMESPACE),
    parent_uuid: null,
    type: 'campaign',
    ...fitText(name, null),
    status: 'pending',
    ...nothingMore(),
  };
  const items: ImportItem[] = [campaign];
  // The campaign stands for the file itself: its header line.
  const lines: number[] = [1];
  const problems: ImportProblem[] = [];
  const warnings: ImportProblem[] = [];
  // The Outpost task deeper lines go under: the current section's, else the last INDENT 1 task's.
  let holder: ImportItem | null = null;
  let section: ImportItem | null = null;
  let last: ImportItem | null = null;
  // The title of the last task line at each INDENT, to name a line's Todoist parent.
  const atIndent: string[] = [];
  // Each TIMEZONE the file names, with its first line: said once in the preview, never dropped unseen.
  const zones = new Map<string, { line: number; text: string }>();
  rows.slice(1).forEach((row, index) => {
    const line = index + 2;
    const get = (c: number) => (c < 0 ? '' : (row[c] ?? '').trim());
    const getNamed = (column: string) => get(col(column));
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
      if (description.length > DESCRIPTION_MAX_LENGTH) {
        warnings.push({
          line,
          text,
          reason: `Note cut to fit the description of “${shorten(last.title)}” (${DESCRIPTION_MAX_LENGTH.toLocaleString('en-US')} characters)`,
        });
      }
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
    const reasons: string[] = [];
    let type: ItemType = 'task';
    let parent = campaign;
    let indent = 1;
    if (kind === 'task') {
      const given = Number.parseInt(get(cIndent) || '1', 10);
      indent = Number.isFinite(given) && given >= 1 ? Math.min(given, 5) : 1;
      // How deep Outpost can put it: 1 a task of the campaign, 2 a todo of the task holding it.
      const depth = section !== null ? 2 : Math.min(indent, 2);
      if (depth === 2 && holder !== null) {
        type = 'todo';
        parent = holder;
        const under = atIndent[indent - 1];
        const nested = section !== null ? indent > 1 : indent > 2;
        if (nested)
          reasons.push(
            under === undefined
              ? `Indent ${indent} flattened: a todo of “${shorten(holder.title)}” (Outpost has three levels)`
              : `Indent ${indent} flattened: under “${shorten(under)}” in Todoist, a todo of “${shorten(holder.title)}” beside it (Outpost has three levels)`,
          );
      } else if (indent > 1) {
        reasons.push(`Indent ${indent} with no task above it: imported as a task of “${shorten(name)}”`);
      }
      atIndent[indent] = content;
      atIndent.length = indent + 1;
    }
    const zone = getNamed('timezone');
    if (zone !== '' && !zones.has(zone)) zones.set(zone, { line, text });
    const named =
      kind === 'task'
        ? todoistLabels(content, (reason) => reasons.push(reason))
        : { title: content, labels: [] };
    const priority =
      kind === 'task'
        ? todoistPriority(getNamed('priority'), (reason) => reasons.push(reason))
        : DEFAULT_PRIORITY;
    const date = kind === 'task' ? todoistDate(getNamed('date'), options) : NO_DATE;
    const deadline = kind === 'task' ? getNamed('deadline') : '';
    const end_date = deadline === '' ? null : todoistDeadline(deadline, options);
    const item: ImportItem = {
      uuid: csvUuid(source, parent.uuid, type, content, seen),
      parent_uuid: parent.uuid,
      type,
      ...fitText(named.title, get(cDesc) || null),
      status: 'pending',
      ...nothingMore(),
      labels: named.labels,
      priority,
      // The device's own zone is the item's (time_zone null): the words were read in it.
      ...date,
      due_date: date.due_date ?? end_date,
      end_date,
    };
    if (kind === 'task')
      reasons.push(
        ...todoistLeftOut(getNamed, {
          date: date.due_date !== null,
          deadline: end_date,
          words: options.now !== undefined && options.timeZone !== undefined,
        }),
      );
    for (const reason of reasons) warnings.push({ line, text, reason });
    items.push(item);
    lines.push(line);
    last = item;
    if (kind === 'section') {
      section = item;
      holder = item;
      atIndent.length = 0;
      atIndent[0] = content;
    } else if (type === 'task') holder = item;
  });
  if (items.length === 1) return finish('todoist-csv', { items: [], lines: [] }, problems);
  const here = options.timeZone ?? null;
  for (const [zone, at] of zones) {
    if (zone === here) continue;
    const valid = normalizeTimeZone(zone) !== null;
    warnings.push({
      ...at,
      reason: valid
        ? `Time zone “${shorten(zone)}” noted: dates imported as written, in this device's time zone${here ? ` (${here})` : ''}`
        : `Time zone “${shorten(zone)}” is not an IANA time zone: dates imported as written, in this device's time zone${here ? ` (${here})` : ''}`,
    });
  }
  warnings.sort((a, b) => a.line - b.line);
  return finish('todoist-csv', { items, lines }, problems, warnings);
}
