import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { timeEntryPageSchema, timeEntrySchema } from '../../shared/apiSchemas';
import { paginated } from '../../shared/item';
import { pageQuerySchema } from '../../shared/schemas';
import { minutesOf, TIME_ENTRIES_PER_PAGE } from '../../shared/timeEntries';
import {
  timeEntryCreateSchema,
  timeEntryPatchSchema,
  timeEntryReportQuerySchema,
  timeEntryStopSchema,
} from '../../shared/timeEntrySchemas';
import { timeReportCsv } from '../../shared/timeReportCsv';
import { currentUser } from '../http/context';
import { notFound, parseOrThrow } from '../http/errors';
import { runWrite, sendWrite } from '../http/idempotency';
import { pathId } from '../http/paths';
import { iso, isoOrNull } from '../http/serialize';
import { findVisibleItem } from '../items/queries';
import {
  checkedInHandler,
  errorAnswer,
  idParams,
  invalidAnswer,
  noContent,
  routeDoc,
} from '../openapi/routeDoc';
import {
  createTimeEntry,
  deleteTimeEntry,
  type EntryRef,
  editTimeEntry,
  listItemTimeEntries,
  reportRows,
  stopTimeEntry,
  timeEntryJson,
} from './service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Time entries, the timer and the report (ARCHITECTURE §4 'Start dates, estimates and time'). */
export async function timeEntryRoutes(app: FastifyInstance): Promise<void> {
  const db = app.database.db;
  const TAGS = ['Time'];
  const itemParams = idParams('The item’s id.');
  const entryParams = z.object({
    id: z.string().describe('The time entry’s id, or the uuid of one of the caller’s own entries.'),
  });
  /** The entry in the path: an id, or a uuid of the caller's (a device's queued stop names it so). */
  const entryRef = (request: FastifyRequest): EntryRef => {
    const raw = String((request.params as { id?: string }).id ?? '');
    return UUID.test(raw) ? { uuid: raw.toLowerCase() } : pathId(request, 'Time entry');
  };
  const notSeen = errorAnswer('No such item, or not one the caller may see.');
  const noEntry = errorAnswer('No such time entry, or not one the caller may see.');

  const seenItem = async (request: FastifyRequest) => {
    const item = await findVisibleItem(db, currentUser(request).id, pathId(request));
    if (!item) throw notFound();
    return item;
  };

  const listDoc = routeDoc({
    summary: 'List an item’s time entries',
    description: 'Newest first, 50 a page; for anyone who sees the item.',
    tags: TAGS,
    params: itemParams,
    querystring: checkedInHandler(pageQuerySchema),
    answers: {
      200: { description: 'One page of entries.', schema: timeEntryPageSchema },
      404: notSeen,
      422: invalidAnswer(),
    },
  });
  app.get('/items/:id/time_entries', { schema: listDoc }, async (request) => {
    const item = await seenItem(request);
    const { page = 1 } = parseOrThrow(pageQuerySchema, request.query);
    const { data, total } = await listItemTimeEntries(db, item.id, page, TIME_ENTRIES_PER_PAGE);
    return paginated(data, page, TIME_ENTRIES_PER_PAGE, total);
  });

  const createDoc = routeDoc({
    summary: 'Start a timer or add a time entry',
    description:
      'Without `ended_at` it starts the caller’s timer, ending their running one at `started_at` (one timer per person). With `ended_at` it is a manual entry, which may not overlap another of the caller’s. At most 24 hours; a repeat of a known `uuid` answers with the stored entry. Owners and editors only.',
    tags: TAGS,
    params: itemParams,
    body: checkedInHandler(timeEntryCreateSchema),
    answers: {
      200: { description: 'An entry with this `uuid` exists already: that entry.', schema: timeEntrySchema },
      201: { description: 'The new entry.', schema: timeEntrySchema },
      403: errorAnswer('The caller only views the campaign.'),
      404: notSeen,
      422: invalidAnswer(),
    },
  });
  app.post('/items/:id/time_entries', { schema: createDoc }, async (request, reply) => {
    const user = currentUser(request);
    const id = pathId(request);
    const input = parseOrThrow(timeEntryCreateSchema, request.body);
    return sendWrite(
      reply,
      await runWrite(app, request, user.id, (tx) =>
        createTimeEntry(tx, user, id, {
          ...(input.uuid ? { uuid: input.uuid } : {}),
          started_at: input.started_at as string,
          ...(input.ended_at !== undefined ? { ended_at: input.ended_at } : {}),
          ...(input.note !== undefined ? { note: input.note } : {}),
        }),
      ),
    );
  });

  const stopDoc = routeDoc({
    summary: 'Stop a timer',
    description:
      'Ends the running entry at `ended_at` (the server’s clock without it), within 24 hours of its start and before the caller’s next entry. An entry already ended stays as it is: a timer ends once, whichever device stops it.',
    tags: TAGS,
    params: entryParams,
    body: checkedInHandler(timeEntryStopSchema),
    answers: {
      200: { description: 'The entry.', schema: timeEntrySchema },
      403: errorAnswer('Not the caller’s timer, or the caller only views the campaign.'),
      404: noEntry,
      422: invalidAnswer(),
    },
  });
  app.post('/time_entries/:id/stop', { schema: stopDoc }, async (request, reply) => {
    const user = currentUser(request);
    const id = entryRef(request);
    const { ended_at } = parseOrThrow(timeEntryStopSchema, request.body ?? {});
    return sendWrite(
      reply,
      await runWrite(app, request, user.id, (tx) => stopTimeEntry(tx, user, id, ended_at)),
    );
  });

  const editDoc = routeDoc({
    summary: 'Edit a time entry',
    description: 'Its author only; the span must stay at most 24 hours and overlap none of theirs.',
    tags: TAGS,
    params: entryParams,
    body: checkedInHandler(timeEntryPatchSchema),
    answers: {
      200: { description: 'The entry.', schema: timeEntrySchema },
      403: errorAnswer('The caller sees the entry but did not write it.'),
      404: noEntry,
      422: invalidAnswer(),
    },
  });
  app.patch('/time_entries/:id', { schema: editDoc }, async (request, reply) => {
    const user = currentUser(request);
    const id = entryRef(request);
    const patch = parseOrThrow(timeEntryPatchSchema, request.body);
    return sendWrite(
      reply,
      await runWrite(app, request, user.id, (tx) =>
        editTimeEntry(tx, user, id, {
          ...(patch.started_at ? { started_at: patch.started_at } : {}),
          ...(patch.ended_at !== undefined ? { ended_at: patch.ended_at } : {}),
          ...(patch.note !== undefined ? { note: patch.note } : {}),
        }),
      ),
    );
  });

  const deleteDoc = routeDoc({
    summary: 'Delete a time entry',
    description: 'By its author, or the campaign’s owner.',
    tags: TAGS,
    params: entryParams,
    answers: {
      204: noContent('Deleted.'),
      403: errorAnswer('The caller sees the entry but may not delete it.'),
      404: noEntry,
    },
  });
  app.delete('/time_entries/:id', { schema: deleteDoc }, async (request, reply) => {
    const user = currentUser(request);
    const id = entryRef(request);
    return sendWrite(reply, await runWrite(app, request, user.id, (tx) => deleteTimeEntry(tx, user, id)));
  });

  const reportDoc = routeDoc({
    summary: 'Time entries across items',
    description:
      'Entries on items the caller sees, newest first, 50 a page: started on or after `from` and on or before `to` (UTC days), in one campaign, by one person.',
    tags: TAGS,
    querystring: timeEntryReportQuerySchema,
    answers: {
      200: { description: 'One page of entries.', schema: timeEntryPageSchema },
      422: invalidAnswer(),
    },
  });
  app.get('/time_entries', { schema: reportDoc }, async (request) => {
    const user = currentUser(request);
    const { page = 1, ...filters } = parseOrThrow(timeEntryReportQuerySchema, request.query);
    const found = await reportRows(db, user.id, filters, {
      limit: TIME_ENTRIES_PER_PAGE,
      offset: (page - 1) * TIME_ENTRIES_PER_PAGE,
    });
    return paginated(found.rows.map(timeEntryJson), page, TIME_ENTRIES_PER_PAGE, found.total);
  });

  const csvDoc = routeDoc({
    summary: 'Time entries as CSV',
    description:
      "The same entries as `GET /api/time_entries`, all of them, as RFC 4180 CSV (`date,start,end,person,campaign,task,item,minutes,note`: start and end in UTC, the end empty while running; `task` is the task the item is or lies under); a cell a spreadsheet would run as a formula starts with `'`.",
    tags: TAGS,
    querystring: timeEntryReportQuerySchema,
    answers: { 200: { description: 'The CSV.', media: 'text/csv' }, 422: invalidAnswer() },
  });
  app.get('/time_entries.csv', { schema: csvDoc }, async (request, reply) => {
    const user = currentUser(request);
    const { page: _page, ...filters } = parseOrThrow(timeEntryReportQuerySchema, request.query);
    const found = await reportRows(db, user.id, filters, null);
    const csv = timeReportCsv(
      found.rows.map((r) => ({
        date: iso(r.started_at).slice(0, 10),
        start: iso(r.started_at),
        end: isoOrNull(r.ended_at) ?? '',
        person: r.user_name,
        campaign: r.campaign_title ?? '',
        task: r.task_title ?? '',
        item: r.item_title,
        minutes: minutesOf(iso(r.started_at), isoOrNull(r.ended_at)),
        note: r.note,
      })),
    );
    return reply
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', 'attachment; filename="outpost-time.csv"')
      .send(csv);
  });
}
