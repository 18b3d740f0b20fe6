import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Item } from '../../shared/item';
import { itemCreateSchema, itemPatchSchema } from '../../shared/schemas';
import {
  type MergedField,
  mergeVtodo,
  parseVtodo,
  readVtodoEtag,
  uuidOfUid,
  type VtodoFields,
  type VtodoKept,
} from '../../shared/vtodo';
import type { UserRow } from '../auth/users';
import { HttpError, parseOrThrow } from '../http/errors';
import { runWrite } from '../http/idempotency';
import { deleteDescendantsInSteps, undoDeleteSteps } from '../items/cascadeSteps';
import { createItem, deleteItem, updateItem } from '../items/service';
import { bodyText, type DavTarget, notFound } from './paths';
import { writable } from './propfind';
import {
  type Calendar,
  findCalendar,
  findTaskByUid,
  findTodoByName,
  mergeStateOf,
  saveObject,
  type TodoRow,
  touchItem,
  uuidTaken,
} from './store';
import { CALDAV, DAV } from './xml';

/** The longest resource name a calendar app may PUT an item under. */
const NAME_MAX = 255;

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const stale = (message: string) => new HttpError(412, message);
const VIEWER = 'You are a viewer of this campaign: its calendar is read-only for you.';

/** A 4xx from a VTODO Outpost cannot take, said with the CalDAV precondition it breaks. */
const invalid = (message: string) =>
  new HttpError(422, message, { precondition: { ns: CALDAV, name: 'valid-calendar-object-resource' } });

/** Names of the merged fields as a person reads them in a 412. */
const FIELD_WORDS: Record<MergedField, string> = {
  summary: 'the title (SUMMARY)',
  description: 'the description',
  start: 'the start date (DTSTART)',
  due: 'the due date (DUE)',
  priority: 'the priority',
  status: 'the status',
  labels: 'the labels (CATEGORIES)',
  rrule: 'the repeat rule (RRULE)',
  parent: 'the task it belongs to (RELATED-TO)',
  kept: 'the other properties (alarms, X- properties)',
};

/**
 * The parent a VTODO's RELATED-TO names (V5): a live task the person sees in this calendar, else a
 * 409 with the reason. Never a placeholder: a todo whose task is not here yet is refused until it is.
 */
async function parentOf(
  app: FastifyInstance,
  user: UserRow,
  calendar: Calendar,
  parentUid: string | null,
): Promise<number | null> {
  if (parentUid === null) return calendar.campaignId;
  const task = await findTaskByUid(app.database.db, user.id, calendar, parentUid, uuidOfUid(parentUid));
  if (!task)
    throw new HttpError(
      409,
      `RELATED-TO names ${parentUid}, which is no task in this calendar: put the task first (Outpost makes no placeholder).`,
    );
  if (task.type !== 'task')
    throw new HttpError(409, `RELATED-TO names ${parentUid}, a todo: only a task holds todos in Outpost.`);
  return task.id;
}

/** The item fields a VTODO's fields set, in the API's names (the parent resolved apart). */
function itemFields(fields: VtodoFields) {
  return {
    title: fields.summary,
    description: fields.description,
    start_date: fields.start,
    due_date: fields.due,
    priority: fields.priority,
    status: fields.status,
    labels: fields.labels,
    recurrence: fields.rrule,
  };
}

/** Whether kept lines hold anything (an empty caldav_objects row is not written). */
const keepsAnything = (kept: VtodoKept) =>
  kept.lines.length > 0 || kept.calendar.length > 0 || kept.due !== null || kept.start !== null;

/**
 * PUT of a VTODO (V4, V5): a new resource creates a task (or, with RELATED-TO, a todo under its task)
 * through the items' own create; an existing one is changed through the items' own update with only
 * the fields the client changed since the copy its If-Match names (the per-field merge), so history,
 * notifications, webhooks, roll-up and next occurrences follow as for any write. The answer carries no
 * ETag: the stored VTODO is Outpost's writing of it, not the client's bytes (RFC 4791 §5.3.4).
 */
export async function putTodo(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  target: Extract<DavTarget, { kind: 'object' }>,
): Promise<FastifyReply> {
  const db = app.database.db;
  const calendar = await findCalendar(db, user.id, target.calendar);
  if (!calendar) throw notFound();
  if (target.name.length > NAME_MAX)
    throw new HttpError(414, `A resource name is at most ${NAME_MAX} characters.`);
  const existing = await findTodoByName(db, user.id, calendar, target.name);
  const ifMatch = header(request, 'if-match');
  const ifNoneMatch = header(request, 'if-none-match');
  if (existing && ifNoneMatch?.trim() === '*')
    throw stale('An item is already at this address (If-None-Match: *).');
  if (!existing && ifMatch !== undefined) throw stale('Nothing is at this address any more (If-Match).');
  if (!writable(calendar))
    throw new HttpError(403, VIEWER, { precondition: { ns: DAV, name: 'need-privileges' } });
  const parsed = parseVtodo(bodyText(request), existing?.time_zone ?? 'UTC');
  if (!parsed.ok) throw invalid(parsed.message);
  const { fields, kept } = parsed;
  const uuid = uuidOfUid(fields.uid);
  return existing
    ? changeTodo(app, request, reply, user, calendar, existing, fields, kept, ifMatch)
    : createTodo(app, request, reply, user, calendar, target.name, fields, kept, uuid);
}

async function createTodo(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  calendar: Calendar,
  name: string,
  fields: VtodoFields,
  kept: VtodoKept,
  uuid: string,
): Promise<FastifyReply> {
  if (await uuidTaken(app.database.db, user.id, uuid))
    throw new HttpError(403, `Another item already has the UID ${fields.uid}.`, {
      precondition: { ns: CALDAV, name: 'no-uid-conflict' },
    });
  const parentId = await parentOf(app, user, calendar, fields.parent);
  const input = parseOrThrow(itemCreateSchema, {
    ...itemFields(fields),
    type: fields.parent === null ? 'task' : 'todo',
    uuid,
    parent_id: parentId,
  });
  const customUid = fields.uid === uuid ? null : fields.uid;
  const customName = name === `${uuid}.ics` ? null : name;
  await runWrite(app, request, user.id, async (tx) => {
    const result = await createItem(tx, user, input);
    const id = (result.body as Item).id;
    if (customUid !== null || customName !== null || keepsAnything(kept))
      await saveObject(tx, id, { uid: customUid, name: customName, kept });
    return result;
  });
  return reply.status(201).header('Content-Length', '0').send();
}

async function changeTodo(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  calendar: Calendar,
  existing: TodoRow,
  fields: VtodoFields,
  kept: VtodoKept,
  ifMatch: string | undefined,
): Promise<FastifyReply> {
  const currentUid = existing.co_uid ?? existing.uuid ?? '';
  if (uuidOfUid(fields.uid) !== uuidOfUid(currentUid))
    throw new HttpError(409, `The UID of an item cannot change: this one is ${currentUid}.`, {
      precondition: { ns: CALDAV, name: 'no-uid-conflict' },
    });
  // The copy the client's ETag names: its marks, field by field; `*` or none takes the PUT as it is.
  let base: ReturnType<typeof readVtodoEtag> = null;
  if (ifMatch !== undefined && ifMatch.trim() !== '*') {
    base = readVtodoEtag(ifMatch);
    if (base === null || base.version > existing.version)
      throw stale('This ETag is not one of this item’s: fetch it again.');
  }
  const { uid: _uid, ...sent } = fields;
  const merged = mergeVtodo(base?.marks ?? null, { ...sent, kept }, mergeStateOf(existing));
  if (!merged.ok)
    throw stale(
      `Changed in Outpost since your copy, and by you: ${merged.conflicts.map((f) => FIELD_WORDS[f]).join(', ')}. Fetch it again.`,
    );
  const changed = new Set(merged.changed);
  const all = itemFields(fields);
  const patch: Record<string, unknown> = {};
  if (changed.has('summary')) patch.title = all.title;
  if (changed.has('description')) patch.description = all.description;
  if (changed.has('start')) patch.start_date = all.start_date;
  if (changed.has('due')) patch.due_date = all.due_date;
  if (changed.has('priority')) patch.priority = all.priority;
  if (changed.has('status')) patch.status = all.status;
  if (changed.has('labels')) patch.labels = all.labels;
  if (changed.has('rrule')) patch.recurrence = all.recurrence;
  if (changed.has('parent')) patch.parent_id = await parentOf(app, user, calendar, fields.parent);
  const checked = Object.keys(patch).length > 0 ? parseOrThrow(itemPatchSchema, patch) : {};
  await runWrite(app, request, user.id, async (tx) => {
    // Based on the version read above: a write that landed since is a 412, and the client tries again.
    const result = await updateItem(tx, user, existing.id, checked, existing.version);
    if (changed.has('kept')) {
      await saveObject(tx, existing.id, { uid: existing.co_uid, name: existing.co_name, kept });
      if (Object.keys(checked).length === 0) await touchItem(tx, existing.id);
    }
    return result;
  });
  return reply.status(204).send();
}

/** DELETE of a VTODO: the items' own delete (its trash, its checks: a viewer 403, only its creator). */
export async function deleteTodo(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  target: Extract<DavTarget, { kind: 'object' }>,
): Promise<FastifyReply> {
  const db = app.database.db;
  const calendar = await findCalendar(db, user.id, target.calendar);
  if (!calendar) throw notFound();
  const existing = await findTodoByName(db, user.id, calendar, target.name);
  if (!existing) throw notFound();
  const ifMatch = header(request, 'if-match');
  if (ifMatch !== undefined && ifMatch.trim() !== '*') {
    const base = readVtodoEtag(ifMatch);
    if (base === null || base.version !== existing.version)
      throw stale('The item changed since your copy: fetch it again before deleting it.');
  }
  if (!writable(calendar))
    throw new HttpError(403, VIEWER, { precondition: { ns: DAV, name: 'need-privileges' } });
  const stamp = await deleteDescendantsInSteps(app, user, existing.id, existing.version);
  try {
    await runWrite(app, request, user.id, (tx) => deleteItem(tx, user, existing.id, existing.version, stamp));
  } catch (error) {
    if (stamp !== null) await undoDeleteSteps(app, user, existing.id, stamp);
    throw error;
  }
  return reply.status(204).send();
}
