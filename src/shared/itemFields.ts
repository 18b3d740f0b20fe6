/**
 * Every field a person sets on an item, declared once (ARCHITECTURE §5 'Declared once', SYNC.md D):
 * the server's columns and JSON, the zod shapes (by the key `schema`, resolved in ./schemas.ts so
 * this file loads no zod), the patchable, merge, undo, history and activity lists, the export and
 * import keys, a new item's defaults and what a next occurrence carries are all derived from here.
 * A new plain field is a migration, one entry below and its UI.
 *
 * The item's structure (id, uuid, type, owner, timestamps, version, counts) is not declared here:
 * no one sets it, and every list that names it names it for a reason of its own.
 */

import type { ItemStatus } from './item';

/** The zod schema a field's value passes (./schemas.ts `FIELD_SCHEMAS`). */
export type FieldSchemaKey =
  | 'title'
  | 'description'
  | 'status'
  | 'ref'
  | 'date'
  | 'instant'
  | 'recurrence'
  | 'seriesUuid'
  | 'timeZone'
  | 'priority'
  | 'labels'
  | 'sortKey'
  | 'shortText';

/**
 * How the server's column holds the value, which says how it is read back: `date` as its text
 * (YYYY-MM-DD), `instant` as an ISO 8601 instant in UTC, `textArray` written as an array literal;
 * `plain` as the driver gives it.
 */
export type FieldColumn = 'plain' | 'date' | 'instant' | 'textArray';

export interface FieldDescriptor {
  readonly schema: FieldSchemaKey;
  readonly column: FieldColumn;
  /** Absent on rows stored before the field (the `Item` type has it optional; read it as `default`). */
  readonly optional: boolean;
  /** What a new item holds when the create gives none, and what a row stored before the field reads as. */
  readonly default: string | number | readonly string[] | null;
  /** A create must give it, may give it, or may give it or null (the server picks then). */
  readonly create: 'required' | 'optional' | 'nullable';
  /** A PATCH may change it (and so a local edit, and the sync merge compares it). */
  readonly patch: boolean;
  /** A change to it is a conflict when both sides made one (SYNC.md C1); a move's fields are laid over instead. */
  readonly merge: 'conflict' | 'later wins' | false;
  /** An undo puts it back (SYNC.md U). */
  readonly undo: boolean;
  /** A history restore sets it back, reporting it by this name; false when none does. */
  readonly history: string | false;
  /** Its name on an activity line ('Due date: none → 5 May 2030'); null when its changes are not shown. */
  readonly label: string | null;
  /** The Outpost JSON export carries it under its own name, and an import reads it back. */
  readonly export: boolean;
  /** Outpost CSV has a column for it (ARCHITECTURE §5: the spec's six first, then these). */
  readonly csv: boolean;
  /** A repeating item's next occurrence carries it as it is (SYNC.md N). */
  readonly carry: boolean;
}

export const ITEM_FIELDS = {
  title: {
    schema: 'title',
    create: 'required',
    optional: false,
    column: 'plain',
    default: '',
    patch: true,
    merge: 'conflict',
    undo: true,
    history: 'title',
    label: 'Title',
    export: true,
    csv: true,
    carry: true,
  },
  description: {
    schema: 'description',
    create: 'optional',
    optional: false,
    column: 'plain',
    default: null,
    patch: true,
    merge: 'conflict',
    undo: true,
    history: 'description',
    label: 'Description',
    export: true,
    csv: true,
    carry: true,
  },
  status: {
    schema: 'status',
    create: 'optional',
    optional: false,
    column: 'plain',
    default: 'pending',
    patch: true,
    merge: 'conflict',
    undo: true,
    history: 'status',
    label: 'Status',
    export: true,
    csv: true,
    // A next occurrence starts pending.
    carry: false,
  },
  parent_id: {
    schema: 'ref',
    create: 'optional',
    optional: false,
    column: 'plain',
    default: null,
    patch: true,
    merge: 'later wins',
    // Undo names the parent by uuid (parent_uuid), so a temporary id swapped since changes nothing.
    undo: true,
    history: 'parent',
    // The activity line names the parent by title ('Moved'), never by id.
    label: null,
    export: true,
    csv: false,
    carry: true,
  },
  assigned_to: {
    schema: 'ref',
    create: 'optional',
    optional: false,
    column: 'plain',
    default: null,
    patch: true,
    merge: 'conflict',
    undo: true,
    history: 'assignee',
    label: 'Assignee',
    export: true,
    csv: true,
    carry: true,
  },
  due_date: {
    schema: 'date',
    create: 'optional',
    optional: false,
    column: 'date',
    default: null,
    patch: true,
    merge: 'conflict',
    undo: true,
    history: 'due_date',
    label: 'Due date',
    export: true,
    csv: true,
    // The rule moves it on.
    carry: false,
  },
  end_date: {
    schema: 'date',
    create: 'optional',
    optional: false,
    column: 'date',
    default: null,
    patch: true,
    merge: 'conflict',
    undo: true,
    history: 'end_date',
    label: 'End date',
    export: true,
    csv: true,
    // A repeating item has none.
    carry: false,
  },
  remind_at: {
    schema: 'instant',
    create: 'optional',
    optional: false,
    column: 'instant',
    default: null,
    patch: true,
    merge: 'conflict',
    undo: true,
    history: 'remind_at',
    label: 'Reminder',
    export: true,
    csv: true,
    // Moved on with the due date, at the same wall-clock time (N5).
    carry: false,
  },
  recurrence: {
    schema: 'recurrence',
    create: 'optional',
    optional: true,
    column: 'plain',
    default: null,
    patch: true,
    merge: 'conflict',
    undo: true,
    history: 'recurrence',
    label: 'Repeats',
    export: true,
    csv: true,
    // One count fewer, and the time it keeps (N11).
    carry: false,
  },
  series_uuid: {
    schema: 'seriesUuid',
    create: 'optional',
    optional: true,
    column: 'plain',
    default: null,
    patch: false,
    merge: false,
    undo: false,
    history: false,
    label: null,
    export: true,
    csv: true,
    // The series' first uuid, which the first occurrence holds as its own uuid.
    carry: false,
  },
  time_zone: {
    schema: 'timeZone',
    create: 'optional',
    optional: true,
    column: 'plain',
    default: 'UTC',
    patch: true,
    merge: 'conflict',
    undo: false,
    history: false,
    label: null,
    export: true,
    csv: true,
    carry: true,
  },
  priority: {
    schema: 'priority',
    create: 'optional',
    optional: true,
    column: 'plain',
    default: 4,
    patch: true,
    merge: 'conflict',
    // A drop on Today can change it with the key (SYNC.md O6): undoing the drop puts it back too.
    undo: true,
    history: 'priority',
    label: 'Priority',
    export: true,
    csv: true,
    carry: true,
  },
  labels: {
    schema: 'labels',
    create: 'optional',
    optional: true,
    column: 'textArray',
    default: [],
    patch: true,
    merge: 'conflict',
    undo: false,
    history: 'labels',
    label: 'Labels',
    export: true,
    csv: true,
    carry: true,
  },
  sort_key: {
    schema: 'sortKey',
    create: 'nullable',
    optional: true,
    column: 'plain',
    // A row stored before the field reads as '', which sorts first; the server gives every new item a
    // key after its last sibling's.
    default: '',
    patch: true,
    merge: 'later wins',
    undo: true,
    history: false,
    label: null,
    export: true,
    csv: true,
    // It goes last among its siblings instead.
    carry: false,
  },
} as const satisfies Record<string, FieldDescriptor>;

export type ItemFieldName = keyof typeof ITEM_FIELDS;
type Fields = typeof ITEM_FIELDS;
export type FlaggedField<Flag extends keyof FieldDescriptor> = {
  [F in ItemFieldName]: Fields[F][Flag] extends false | null ? never : F;
}[ItemFieldName];

/** The declared fields in declaration order. */
export const ITEM_FIELD_NAMES = Object.keys(ITEM_FIELDS) as ItemFieldName[];

/** The names of the fields whose `flag` is set (not false or null), in declaration order. */
export function fieldsWith<Flag extends keyof FieldDescriptor>(flag: Flag): FlaggedField<Flag>[] {
  return ITEM_FIELD_NAMES.filter((f) => {
    const value: unknown = ITEM_FIELDS[f][flag];
    return value !== false && value !== null;
  }) as FlaggedField<Flag>[];
}

/** The TypeScript type of a value each schema key's zod schema gives. */
interface FieldValues {
  title: string;
  description: string | null;
  status: ItemStatus;
  ref: number | null;
  date: string | null;
  instant: string | null;
  recurrence: string | null;
  seriesUuid: string | null;
  timeZone: string;
  priority: number;
  labels: string[];
  sortKey: string;
  shortText: string | null;
}
type ValueOf<F extends ItemFieldName> = FieldValues[Fields[F]['schema']];
/** The fields absent on rows stored before them. */
export type OptionalField = {
  [F in ItemFieldName]: Fields[F]['optional'] extends true ? F : never;
}[ItemFieldName];

/** The declared fields as the API's item carries them (item.ts `Item` extends it). */
export type DeclaredItemFields = { [F in Exclude<ItemFieldName, OptionalField>]: ValueOf<F> } & {
  [F in OptionalField]?: ValueOf<F>;
};

/** The patchable fields' names (their type; the list is item.ts `PATCHABLE_FIELDS`). */
export type PatchFieldName = FlaggedField<'patch'>;
