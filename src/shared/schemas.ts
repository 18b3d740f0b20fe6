import { z } from 'zod';
import { ESTIMATE_MAX_MINUTES } from './duration';
import {
  CONTACTS_PER_REQUEST,
  DESCRIPTION_MAX_LENGTH,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  ITEM_BATCH_MAX,
  ITEM_STATUSES,
  ITEM_TYPES,
  MAX_PER_PAGE,
  TITLE_MAX_LENGTH,
} from './item';
import {
  type FieldSchemaKey,
  fieldsWith,
  ITEM_FIELD_NAMES,
  ITEM_FIELDS,
  type ItemFieldName,
  type PatchFieldName,
  SHORT_TEXT_MAX,
} from './itemFields';
import { LABELS_MAX, labelProblem, PRIORITIES, repeatedLabel } from './planning';
import { NAME_MAX } from './profile';
import { formatRecurrence, parseRecurrence } from './recurrenceRule';
import { isFractionalKey, SORT_KEY_MAX_LENGTH, SORT_KEY_PATTERN } from './sortKey';
import {
  isBlankTitle,
  isStorableText,
  stripControlsLine,
  stripControlsMultiline,
  unstorableTextMessage,
} from './text';
import { DEFAULT_TIME_ZONE, normalizeTimeZone } from './timeZone';

/**
 * Free text from a request or a form: a string PostgreSQL can store as it is. A NUL (U+0000) fails
 * the insert and a lone UTF-16 surrogate would be stored as U+FFFD, so both are refused with a 422
 * naming the field, before anything else about the value is checked. Every free-text field of every
 * schema starts here, so the client's forms and queued payloads follow the same rule as the server.
 * `label` starts the field's messages ('The title'); `typeMessage` is the message when the value is
 * missing or not a string.
 */
export function text(label: string, typeMessage = `${label} must be text.`) {
  return z.string({ error: typeMessage }).refine((value) => unstorableTextMessage(value, label) === null, {
    error: (issue) => unstorableTextMessage(String(issue.input), label) ?? `${label} is invalid.`,
    abort: true,
  });
}

/** A database id: a positive integer that fits PostgreSQL's integer. */
export const idSchema = z.coerce
  .number({ error: 'Must be a number.' })
  .int('Must be a whole number.')
  .min(1, 'Must be a positive id.')
  .max(2_147_483_647, 'Is too large.');

const optionalRef = z
  .union([z.number(), z.null()])
  .transform((v) => (v === 0 ? null : v))
  .pipe(z.union([z.null(), z.number().int('Must be a whole number.').min(1).max(2_147_483_647)]));

/**
 * Whether year, month and day name a day the calendar has. Date.parse and new Date roll 30 February
 * over to 2 March instead of refusing it, so the parts are checked by a round trip.
 */
function isCalendarDay(year: number, month: number, day: number): boolean {
  const at = new Date(Date.UTC(year, month - 1, day));
  return at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === day;
}

/**
 * Whether `HH:MM[:SS]` (colons optional) is a time a clock shows. Date.parse takes 24:00 as the next
 * day's midnight, so a reminder written for one day would fire on the next.
 */
function isClockTime(time: string): boolean {
  const match = /^(\d{2}):?(\d{2})(?::?(\d{2}))?/.exec(time);
  if (!match) return true;
  return Number(match[1]) <= 23 && Number(match[2]) <= 59 && Number(match[3] ?? 0) <= 59;
}

/** Dates travel as YYYY-MM-DD; a full ISO timestamp is accepted and cut to its date. */
const dateField = z.union([z.string(), z.null()]).transform((v, ctx) => {
  if (v === null || v.trim() === '') return null;
  const match = /^((\d{4})-(\d{2})-(\d{2}))(?:[T ]([\d:.]+)(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(v.trim());
  const real =
    match !== null &&
    isCalendarDay(Number(match[2]), Number(match[3]), Number(match[4])) &&
    (match[5] === undefined || isClockTime(match[5]));
  if (!real) {
    ctx.addIssue({ code: 'custom', message: 'Must be a date (YYYY-MM-DD).' });
    return z.NEVER;
  }
  return match[1] as string;
});

const INSTANT_MIN = Date.UTC(2000, 0, 1);
const INSTANT_MAX = Date.UTC(2200, 0, 1) - 1;

/**
 * A reminder's time: an ISO 8601 instant, so it names one moment everywhere (a date and time with
 * `Z` or an offset; a local time without one is refused). Stored and sent back as UTC
 * (`2026-05-01T07:30:00.000Z`); empty means none.
 */
export const instantField = z.union([z.string(), z.null()]).transform((v, ctx) => {
  if (v === null || v.trim() === '') return null;
  const trimmed = v.trim();
  const match =
    /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2}(?::\d{2})?)(?:\.\d{1,9})?(?:Z|[+-](\d{2}:?\d{2}))$/i.exec(trimmed);
  const real =
    match !== null &&
    isCalendarDay(Number(match[1]), Number(match[2]), Number(match[3])) &&
    isClockTime(match[4] as string) &&
    (match[5] === undefined || isClockTime(match[5]));
  const at = real ? Date.parse(trimmed) : Number.NaN;
  if (Number.isNaN(at)) {
    ctx.addIssue({ code: 'custom', message: 'Must be a date and time with a time zone (ISO 8601).' });
    return z.NEVER;
  }
  // A reminder in the year 9999 (or 0001) is a typo, and one no worker should have to look at.
  if (at < INSTANT_MIN || at > INSTANT_MAX) {
    ctx.addIssue({ code: 'custom', message: 'Must be between the years 2000 and 2199.' });
    return z.NEVER;
  }
  return new Date(at).toISOString();
});

/**
 * A repeat rule: an RRULE of the subset §5 allows, at most 255 characters, stored in one canonical
 * spelling; empty means none. Whether the item may repeat (a task or todo with a due date, an end
 * not yet past) depends on the whole item: recurrenceProblem, run by the server and the repository.
 */
const recurrenceField = z
  .union([z.string(), z.null()], { error: 'The repeat rule must be text.' })
  .transform((v, ctx) => {
    if (v === null || v.trim() === '') return null;
    const parsed = parseRecurrence(v);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: parsed.message });
      return z.NEVER;
    }
    return formatRecurrence(parsed.rule);
  });

/**
 * The IANA time zone whose wall clock a repeating reminder keeps (ARCHITECTURE §4, SYNC.md N5), in
 * the engine's spelling; null or empty means the default, UTC.
 */
const timeZoneField = z
  .union([z.string(), z.null()], { error: 'The time zone must be text.' })
  .transform((v, ctx) => {
    if (v === null || v.trim() === '') return DEFAULT_TIME_ZONE;
    const zone = normalizeTimeZone(v);
    if (zone === null) {
      ctx.addIssue({
        code: 'custom',
        message: 'Must be an IANA time zone name, such as America/New_York, Europe/Berlin or UTC.',
      });
      return z.NEVER;
    }
    return zone;
  });

/** 1–4, 1 the most urgent (ARCHITECTURE §4 'Planning fields'). */
const priorityField = z.literal(PRIORITIES, {
  error: 'The priority must be 1, 2, 3 or 4 (1 is the most urgent).',
});

/**
 * Up to LABELS_MAX labels, each trimmed, 1–40 characters without #, @ or a comma, no two the same
 * ignoring case; kept as first written (case and order as given).
 */
const labelsField = z
  .array(text('A label').overwrite(stripControlsLine).trim(), { error: 'The labels must be a list of text.' })
  .max(LABELS_MAX, `At most ${LABELS_MAX} labels.`)
  .superRefine((labels, ctx) => {
    for (const label of labels) {
      const problem = labelProblem(label);
      if (problem) {
        ctx.addIssue({ code: 'custom', message: problem });
        return;
      }
    }
    const repeated = repeatedLabel(labels);
    if (repeated !== null)
      ctx.addIssue({
        code: 'custom',
        message: `The label “${repeated}” is there twice (labels ignore case).`,
      });
  });

/** A place among siblings (§5 'Order', ./sortKey.ts): 1–64 characters of 0-9A-Za-z. */
const sortKeyField = z
  .string({ error: 'The sort key must be text.' })
  .regex(SORT_KEY_PATTERN, `The sort key must be 1–${SORT_KEY_MAX_LENGTH} characters of 0-9, A-Z and a-z.`)
  .refine(
    isFractionalKey,
    'The sort key must be a fractional index (such as a0 or a0V), as sortKey.ts makes.',
  );

/** A title of nothing but white space and invisible characters (zero-width spaces…) counts as empty. */
export const titleSchema = text('The title', 'The title is required.')
  .overwrite(stripControlsLine)
  .trim()
  .refine((title) => !isBlankTitle(title), { message: 'The title is required.', abort: true })
  .max(TITLE_MAX_LENGTH, `Title must be ${TITLE_MAX_LENGTH} characters or less.`);

const descriptionSchema = text('The description')
  .overwrite(stripControlsMultiline)
  .max(DESCRIPTION_MAX_LENGTH, 'The description is too long.')
  .nullable()
  .transform((v) => (v === null || v.trim() === '' ? null : v));

/** A short free text of a field a person sets (ITEM_FIELDS' `shortText`): one line, at most 255 characters; empty is none. */
const shortTextField = text('The text')
  .overwrite(stripControlsLine)
  .trim()
  .max(SHORT_TEXT_MAX, `Must be ${SHORT_TEXT_MAX} characters or less.`)
  .nullable()
  .transform((v) => (v === null || v === '' ? null : v));

/** An estimate in whole minutes, 0 to ESTIMATE_MAX_MINUTES (§4); null is none. */
const minutesField = z.union(
  [
    z
      .number({ error: 'The estimate must be a number of minutes.' })
      .int('The estimate must be a whole number of minutes.')
      .min(0, 'The estimate cannot be negative.')
      .max(
        ESTIMATE_MAX_MINUTES,
        `The estimate must be at most ${ESTIMATE_MAX_MINUTES.toLocaleString('en-US')} minutes.`,
      ),
    z.null(),
  ],
  { error: 'The estimate must be a number of minutes.' },
);

export const itemTypeSchema = z.enum(ITEM_TYPES, { error: 'Must be campaign, task or todo.' });
export const itemStatusSchema = z.enum(ITEM_STATUSES, {
  error: 'Must be pending, in_progress or completed.',
});

/** Each declared field's schema, by the key its descriptor names (./itemFields.ts). */
export const FIELD_SCHEMAS = {
  title: titleSchema,
  description: descriptionSchema,
  status: itemStatusSchema,
  ref: optionalRef,
  date: dateField,
  instant: instantField,
  recurrence: recurrenceField,
  // Set on a next occurrence only (its series' first uuid); see shared/recurrence.ts.
  seriesUuid: z.union([z.uuid('Must be a UUID.'), z.null()]),
  timeZone: timeZoneField,
  priority: priorityField,
  labels: labelsField,
  sortKey: sortKeyField,
  shortText: shortTextField,
  minutes: minutesField,
} as const satisfies Record<FieldSchemaKey, z.ZodType>;

type Descriptors = typeof ITEM_FIELDS;
type SchemaOf<F extends ItemFieldName> = (typeof FIELD_SCHEMAS)[Descriptors[F]['schema']];
type CreateSchemaOf<F extends ItemFieldName> = Descriptors[F]['create'] extends 'required'
  ? SchemaOf<F>
  : Descriptors[F]['create'] extends 'nullable'
    ? z.ZodOptional<z.ZodUnion<[SchemaOf<F>, z.ZodNull]>>
    : z.ZodOptional<SchemaOf<F>>;

/** A create's declared fields: required, optional, or optional or null (sort_key: null is after the last sibling's). */
function createShape(): { [F in ItemFieldName]: CreateSchemaOf<F> } {
  const shape: Record<string, z.ZodType> = {};
  for (const field of ITEM_FIELD_NAMES) {
    const { schema, create } = ITEM_FIELDS[field];
    const base: z.ZodType = FIELD_SCHEMAS[schema];
    shape[field] =
      create === 'required'
        ? base
        : create === 'nullable'
          ? z.union([base, z.null()]).optional()
          : base.optional();
  }
  return shape as { [F in ItemFieldName]: CreateSchemaOf<F> };
}

/** A PATCH's fields: the patchable ones, each optional (with parent_id, sort_key moves and places at once). */
function patchShape(): { [F in PatchFieldName]: z.ZodOptional<SchemaOf<F>> } {
  const shape: Record<string, z.ZodType> = {};
  for (const field of fieldsWith('patch')) shape[field] = FIELD_SCHEMAS[ITEM_FIELDS[field].schema].optional();
  return shape as { [F in PatchFieldName]: z.ZodOptional<SchemaOf<F>> };
}

/** POST /api/items, and the payload of a queued create. */
export const itemCreateSchema = z.strictObject({
  ...createShape(),
  type: itemTypeSchema,
  user_id: z.union([z.number(), z.null()]).optional(),
  uuid: z.uuid('Must be a UUID.').optional(),
});
export type ItemCreateInput = z.input<typeof itemCreateSchema>;
export type ItemCreate = z.output<typeof itemCreateSchema>;

/**
 * One item of `POST /api/items/batch`: the create payload (the same rules as `itemCreateSchema`)
 * with a required `uuid`, and its parent named by `parent_id` or by `parent_uuid` (an earlier item of
 * the batch, or an item already on the server).
 */
export const itemBatchEntrySchema = itemCreateSchema
  .extend({
    uuid: z.uuid('Must be a UUID.'),
    parent_uuid: z.union([z.uuid('Must be a UUID.'), z.null()]).optional(),
  })
  .refine((v) => v.parent_uuid == null || v.parent_id == null, {
    message: 'Name the parent by parent_id or by parent_uuid, not both.',
    path: ['parent_uuid'],
  });
export type ItemBatchEntry = z.output<typeof itemBatchEntrySchema>;

/** POST /api/items/batch (guest upgrade, bulk import): at most ITEM_BATCH_MAX items, parents first. */
export const itemBatchSchema = z.strictObject({
  items: z
    .array(itemBatchEntrySchema, { error: 'Must be a list of items.' })
    .min(1, 'Send at least one item.')
    .max(ITEM_BATCH_MAX, `At most ${ITEM_BATCH_MAX} items can be created in one request.`),
});
export type ItemBatchInput = z.input<typeof itemBatchSchema>;

/** PATCH /api/items/{id}: the changed fields only. */
export const itemPatchSchema = z
  .strictObject(patchShape())
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to change.' });
export type ItemPatchInput = z.input<typeof itemPatchSchema>;
export type ItemPatch = z.output<typeof itemPatchSchema>;

// Declared in ./item (zod-free) so client code that only needs the list does not pull zod in.
export { CONTACTS_PER_REQUEST, ITEM_BATCH_MAX, PATCHABLE_FIELDS, type PatchableField } from './item';

export const assignSchema = z.strictObject({
  user_id: z.number({ error: 'Must be a user id.' }).int('Must be a whole number.').min(0).max(2_147_483_647),
});

/** A phone number as typed, before normalisation (sign-in and code requests). */
export const phoneSchema = text('The phone', 'The phone field is required.')
  .trim()
  .min(1, 'The phone field is required.')
  .max(64);

export const loginSchema = z.strictObject({
  phone: phoneSchema,
  name: text('The name', 'The name field is required.')
    .trim()
    .min(1, 'The name field is required.')
    .max(NAME_MAX),
  code: text('The code').max(12).optional(),
});

/** PATCH /api/me (N13): the person's display name, trimmed, 1 to NAME_MAX characters. */
export const profilePatchSchema = z.strictObject({
  name: text('The name', 'The name field is required.')
    .transform((value) => value.trim())
    .pipe(
      z
        .string()
        .min(1, 'The name field is required.')
        .max(NAME_MAX, `The name may be at most ${NAME_MAX} characters.`)
        .refine(
          (value) => !/[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u.test(value),
          'The name may hold no control characters.',
        ),
    ),
});

/** POST /api/me/phone: a phone to add (for contacts) and, when the server texts codes, its code. */
export const phoneAddSchema = z.strictObject({
  phone: phoneSchema,
  code: text('The code').max(12).optional(),
});

/** POST /api/me/phone/code: the phone to text a code to before adding it. */
export const phoneCodeSchema = z.strictObject({ phone: phoneSchema });

export const contactsSyncSchema = z.strictObject({
  contacts: z
    .array(text('A contact').max(64), { error: 'Must be a list of phone numbers.' })
    .max(
      CONTACTS_PER_REQUEST,
      `At most ${CONTACTS_PER_REQUEST.toLocaleString('en-US')} contacts can be sent at once.`,
    ),
});

const pageSchema = z.coerce.number({ error: 'Must be a number.' }).int().min(1).max(1_000_000);

export const itemListQuerySchema = z.strictObject({
  type: itemTypeSchema.optional(),
  status: itemStatusSchema.optional(),
  parent_id: z.coerce.number({ error: 'Must be a number.' }).int().min(0).max(2_147_483_647).optional(),
  // Items carrying this label (compared without case), and of this priority.
  label: text('The label').trim().min(1, 'The label is empty.').max(200).optional(),
  priority: z.coerce
    .number({ error: 'The priority must be 1, 2, 3 or 4.' })
    .int('The priority must be 1, 2, 3 or 4.')
    .min(1, 'The priority must be 1, 2, 3 or 4.')
    .max(4, 'The priority must be 1, 2, 3 or 4.')
    .optional(),
  page: pageSchema.optional(),
  per_page: z.coerce
    .number({ error: 'Must be a number.' })
    .int()
    .min(1)
    .transform((v) => Math.min(v, MAX_PER_PAGE))
    .optional(),
  // A query in the filter language (shared/filter); its grammar and length are checked where it is
  // parsed, so a malformed one is told with its column.
  filter: text('The filter')
    .optional()
    .describe(
      'A query in the filter language, e.g. `p1 & (today | overdue) & !+waiting` (README.md#filter-language).',
    ),
  // The caller's calendar day, which 'today', 'overdue' and dates in words count from (default: UTC's).
  today: dateField
    .refine((v) => v !== null, 'Must be a date (YYYY-MM-DD).')
    .optional()
    .describe(
      'The caller’s calendar day (YYYY-MM-DD) the filter’s dates count from; default the server’s UTC day.',
    ),
});

export const pageQuerySchema = z.strictObject({ page: pageSchema.optional() });

export const searchQuerySchema = z.strictObject({ q: text('The search').max(200).optional() });

export const syncQuerySchema = z.strictObject({
  cursor: text('The cursor').max(100).optional(),
  // L7: `count=1` asks for `remaining`; old clients never send it and get the page as before.
  count: z.enum(['1'], { error: 'count must be 1.' }).optional(),
});

export const idempotencyKeySchema = z
  .string()
  .min(1, 'The Idempotency-Key header is empty.')
  .max(
    IDEMPOTENCY_KEY_MAX_LENGTH,
    `The Idempotency-Key header must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters.`,
  )
  // PostgreSQL text cannot hold a NUL byte: such a key failed the insert and answered 5xx (found by
  // the route fuzzer through app.inject, which, unlike Node's HTTP parser, lets control bytes through).
  .refine(
    (key) => !Array.from(key).some((ch) => ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127),
    'The Idempotency-Key header must not contain control characters.',
  )
  // Nor an unpaired surrogate: it has no UTF-8 form, and next to other non-ASCII text the embedded
  // engine failed the insert (a 503, found by the fuzzer).
  .refine(
    isStorableText,
    'The Idempotency-Key header contains an invalid character (an unpaired surrogate).',
  );

/** Field → messages, the shape of a 422's `errors`. */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  // No prototype, so a request key such as 'constructor' or '__proto__' is just a key.
  const out: Record<string, string[]> = Object.create(null);
  const add = (key: string, message: string) => {
    out[key] = [...(out[key] ?? []), message];
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add(key, `The ${key} field is not allowed.`);
      continue;
    }
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : 'body';
    add(key, issue.message);
  }
  return out;
}
