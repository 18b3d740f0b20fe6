// The time entries' zod shapes (the server's validation and the queued writes' payloads), apart from
// the timer rules in timeEntries.ts: the data layer loads those with Home, and zod only with a command.
import { z } from 'zod';
import { idSchema, instantField, text } from './schemas';
import { stripControlsMultiline } from './text';
import { entryProblem, startProblem, TIME_NOTE_MAX } from './timeEntries';

const requiredInstant = instantField.refine((v): v is string => v !== null, 'The start is required.');

/**
 * X12: an entry's start, required and plausible (from 2000 to a day from now): one rule for a create,
 * an edit and the device's form (startProblem), so a start in 2100 is a 422 naming `started_at`.
 */
const startField = z
  .union([z.string(), z.null()], { error: 'The start is required.' })
  .pipe(requiredInstant)
  .superRefine((v, ctx) => {
    const problem = startProblem(v as string);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const timeNoteSchema = text('The note')
  .overwrite(stripControlsMultiline)
  .trim()
  .max(TIME_NOTE_MAX, `A note must be ${TIME_NOTE_MAX} characters or less.`);

/**
 * POST /api/items/{id}/time_entries, and the payload of a queued start or manual entry: without
 * `ended_at` it starts the timer (X2).
 */
export const timeEntryCreateSchema = z
  .strictObject({
    uuid: z.uuid('Must be a UUID.').optional(),
    started_at: startField,
    ended_at: instantField.optional(),
    note: timeNoteSchema.optional(),
  })
  .superRefine((entry, ctx) => {
    const problem = entryProblem(entry.started_at as string, entry.ended_at ?? null);
    // The start's own rule has spoken on started_at already.
    if (problem?.ended_at)
      ctx.addIssue({ code: 'custom', path: ['ended_at'], message: problem.ended_at[0]! });
  });

/** PATCH /api/time_entries/{id}: the span is checked whole, against the stored entry, by the writer. */
export const timeEntryPatchSchema = z
  .strictObject({
    started_at: startField.optional(),
    ended_at: instantField.optional(),
    note: timeNoteSchema.optional(),
  })
  .refine((p) => Object.keys(p).length > 0, 'Nothing to change.');

/** POST /api/time_entries/{id}/stop: when the timer stopped (X3); the server's clock when absent. */
export const timeEntryStopSchema = z.strictObject({ ended_at: instantField.optional() });

const dayField = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Must be a date (YYYY-MM-DD).')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'Must be a date (YYYY-MM-DD).');

/** GET /api/time_entries(.csv): entries started on or after `from` and before the day after `to`. */
export const timeEntryReportQuerySchema = z.strictObject({
  from: dayField.optional(),
  to: dayField.optional(),
  campaign_id: idSchema.optional(),
  user_id: idSchema.optional(),
  page: z.coerce.number({ error: 'Must be a number.' }).int().min(1).max(1_000_000).optional(),
});
