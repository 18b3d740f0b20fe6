/**
 * Every field a person sets on an item, declared once (ARCHITECTURE §5 'Declared once', SYNC.md D):
 * the server's columns and JSON, the zod shapes (by the key `schema`, resolved in ./schemas.ts so
 * this file loads no zod), the patchable, merge, undo, history and activity lists, the export and
 * import keys, a new item's defaults, what a next occurrence carries and what the local echo shows in
 * place are all derived from here.
 * A new plain field is a migration, one entry below and its UI.
 *
 * The item's structure (id, uuid, type, owner, timestamps, version, counts) is not declared here:
 * no one sets it, and every list that names it names it for a reason of its own.
 */

import type { ItemStatus } from './item';

/** A field's value kind: the zod schema its value passes (./schemas.ts `FIELD_SCHEMAS`), which ./activity.ts shows it by. */
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
  | 'shortText'
  | 'minutes';

/**
 * How the server's column holds the value, which says how it is read back: `date` as its text
 * (YYYY-MM-DD), `instant` as an ISO 8601 instant in UTC, `textArray` written as an array literal;
 * `plain` as the driver gives it.
 */
export type FieldColumn = 'plain' | 'date' | 'instant' | 'textArray';

export interface FieldDescriptor {
  /**
   * Its value's kind: the zod schema the value passes, and how an activity or history line shows it
   * (./activity.ts reads each kind one way, so a new field of a known kind needs nothing there).
   */
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
  /**
   * A change to it moves no row into or out of any list and changes no count, so the local echo
   * shows it in place before the write commits (client data/changes/localEcho.ts).
   */
  readonly echo: boolean;
}

/** The longest `shortText` value (./schemas.ts). */
export const SHORT_TEXT_MAX = 255;

/**
 * What a field declares unless its entry says otherwise: a plain column, none by default, present on
 * every row, optional in a create, patchable and a conflict when both sides change it, undone,
 * exported (JSON and CSV) and carried, but neither restored by history, labelled nor echoed in place.
 * The entries below name only what differs, so the client's first chunk carries no repeated flags.
 */
const FIELD_DEFAULTS = {
  create: 'optional',
  optional: false,
  column: 'plain',
  default: null,
  patch: true,
  merge: 'conflict',
  undo: true,
  history: false,
  label: null,
  export: true,
  csv: true,
  carry: true,
  echo: false,
} as const satisfies Omit<FieldDescriptor, 'schema'>;

const DECLARED = {
  title: { schema: 'title', create: 'required', default: '', history: 'title', label: 'Title', echo: true },
  description: { schema: 'description', history: 'description', label: 'Description', echo: true },
  // A next occurrence starts pending.
  status: { schema: 'status', default: 'pending', history: 'status', label: 'Status', carry: false },
  parent_id: {
    schema: 'ref',
    merge: 'later wins',
    // Undo names the parent by uuid (parent_uuid), so a temporary id swapped since changes nothing.
    // The activity line names the parent by title ('Moved'), never by id: no label.
    history: 'parent',
    csv: false,
  },
  assigned_to: { schema: 'ref', history: 'assignee', label: 'Assignee' },
  // The rule moves it on.
  due_date: { schema: 'date', column: 'date', history: 'due_date', label: 'Due date', carry: false },
  // A repeating item has none.
  end_date: { schema: 'date', column: 'date', history: 'end_date', label: 'End date', carry: false },
  // Moved on with the due date, at the same wall-clock time (N5).
  remind_at: { schema: 'instant', column: 'instant', history: 'remind_at', label: 'Reminder', carry: false },
  // One count fewer, and the time it keeps (N11).
  recurrence: { schema: 'recurrence', optional: true, history: 'recurrence', label: 'Repeats', carry: false },
  // The series' first uuid, which the first occurrence holds as its own uuid.
  series_uuid: {
    schema: 'seriesUuid',
    optional: true,
    patch: false,
    merge: false,
    undo: false,
    carry: false,
  },
  time_zone: { schema: 'timeZone', optional: true, default: 'UTC', undo: false, label: 'Time zone' },
  // A drop on Today can change it with the key (SYNC.md O6): undoing the drop puts it back too.
  priority: { schema: 'priority', optional: true, default: 4, history: 'priority', label: 'Priority' },
  labels: {
    schema: 'labels',
    optional: true,
    column: 'textArray',
    default: [],
    undo: false,
    history: 'labels',
    label: 'Labels',
  },
  sort_key: {
    schema: 'sortKey',
    create: 'nullable',
    optional: true,
    // A row stored before the field reads as '', which sorts first; the server gives every new item a
    // key after its last sibling's.
    default: '',
    merge: 'later wins',
    // It goes last among its siblings instead.
    carry: false,
    // A move within its list (W5): no row enters or leaves a list; a list in manual order sorts the
    // echo (localEcho.ts shownInManualOrder), one read by an order index moves it at its re-read.
    echo: true,
  },
  // When the work starts (§4, migration 0029): never after the due date (D10). A next occurrence moves it with the
  // due date, keeping the span (recurrence.ts), so it is not carried as it is.
  start_date: {
    schema: 'date',
    column: 'date',
    optional: true,
    history: 'start_date',
    label: 'Start date',
    carry: false,
  },
  // How long the work should take (§4), 0–100,000 minutes; a next occurrence takes as long.
  estimate_minutes: {
    schema: 'minutes',
    optional: true,
    history: 'estimate_minutes',
    label: 'Estimate',
    echo: true,
  },
} as const satisfies Record<string, Pick<FieldDescriptor, 'schema'> & Partial<FieldDescriptor>>;

/** An entry with every flag it leaves out read from FIELD_DEFAULTS (its literal types kept). */
type Resolved<D> = {
  readonly [K in keyof FieldDescriptor]: K extends keyof D
    ? D[K]
    : (typeof FIELD_DEFAULTS)[K & keyof typeof FIELD_DEFAULTS];
};

/** Every declared field's whole descriptor, in declaration order. */
export const ITEM_FIELDS = Object.fromEntries(
  Object.entries(DECLARED).map(([field, declared]) => [field, { ...FIELD_DEFAULTS, ...declared }]),
) as unknown as { readonly [F in keyof typeof DECLARED]: Resolved<(typeof DECLARED)[F]> } satisfies Record<
  string,
  FieldDescriptor
>;

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
  minutes: number | null;
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

/**
 * Whether each schema key takes null, meaning none (a create sends a field a row lacks as null only
 * then; otherwise it leaves it out for the server's default). Checked against ./schemas.ts in a test.
 */
export const NULL_IS_NONE = {
  title: false,
  description: true,
  status: false,
  ref: true,
  date: true,
  instant: true,
  recurrence: true,
  seriesUuid: true,
  timeZone: true,
  priority: false,
  labels: false,
  sortKey: false,
  shortText: true,
  minutes: true,
} as const satisfies Record<FieldSchemaKey, boolean>;

/** A fresh copy of the field's default (a list is never shared between items). */
export function defaultOf<F extends ItemFieldName>(field: F): Fields[F]['default'] {
  const value = ITEM_FIELDS[field].default;
  return (Array.isArray(value) ? [...value] : value) as Fields[F]['default'];
}

/**
 * The field's value on `row`, a row stored before it (absent) reading as its default, and a blank
 * ('') of a field absent on older rows reading as none (null): such a row has no value there yet.
 */
export function storedValueOf(row: Partial<Record<ItemFieldName, unknown>>, field: ItemFieldName): unknown {
  const value = row[field] ?? defaultOf(field);
  if (value === '' && ITEM_FIELDS[field].optional) return null;
  return Array.isArray(value) ? [...value] : value;
}

/** The fields a next occurrence copies as they are (the `carry` flag), a field the row lacks as its default. */
export type CarryField = FlaggedField<'carry'>;
/** The names of the carried fields, in declaration order. */
export const CARRY_FIELDS: readonly CarryField[] = fieldsWith('carry');
/** The fields whose change the local echo shows in place (the `echo` flag). */
export const ECHO_FIELDS: readonly FlaggedField<'echo'>[] = fieldsWith('echo');

/** Every declared field of a new item: the value given, else the field's default (a null given reads as none too). */
export function declaredValues(given: Partial<Record<ItemFieldName, unknown>>): Required<DeclaredItemFields> {
  const out: Record<string, unknown> = {};
  for (const field of ITEM_FIELD_NAMES) {
    const value = given[field];
    out[field] = value === undefined || value === null ? defaultOf(field) : value;
  }
  return out as Required<DeclaredItemFields>;
}
