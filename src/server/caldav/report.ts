import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { unfold } from '../../shared/calendarFeed';
import type { UserRow } from '../auth/users';
import { HttpError } from '../http/errors';
import { bodyText, type DavTarget, notFound, objectHref, targetOf } from './paths';
import { answer, objectValues, readSyncToken, requestedProps, syncTokenOf } from './propfind';
import {
  type Calendar,
  calendarDataOf,
  changesSince,
  findCalendar,
  findTodoByName,
  listTodos,
  resourceName,
  syncHorizon,
  type TodoRow,
} from './store';
import { CALDAV, child, childrenNamed, DAV, goneXml, multistatus, parseXml, type XmlElement } from './xml';

/** Most hrefs one calendar-multiget may name. */
export const MULTIGET_MAX = 5_000;

/**
 * REPORT (RFC 4791 §7.8–7.9, RFC 6578 §3.2) on a calendar: `calendar-query` (the VTODOs a filter
 * matches), `calendar-multiget` (the VTODOs of given hrefs, 404 for each that is not there) and
 * `sync-collection` (what changed since a sync token, V6). Any other report is 403.
 */
export async function report(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  target: DavTarget,
): Promise<FastifyReply> {
  const root = parseXml(bodyText(request));
  if (!root) throw new HttpError(400, 'A REPORT needs a body naming the report.');
  if (target.kind !== 'calendar')
    throw new HttpError(403, 'Reports are answered on a calendar.', {
      precondition: { ns: DAV, name: 'supported-report' },
    });
  const db = app.database.db;
  // The horizon before anything is read: whatever commits meanwhile is sent again next time (V6).
  const horizon = await syncHorizon(db);
  const calendar = await findCalendar(db, user.id, target.calendar);
  if (!calendar) throw notFound();
  const props = requestedProps(child(root, DAV, 'prop'));
  const one = (row: TodoRow) =>
    answer(
      objectHref(user, calendar.key, resourceName(row)),
      objectValues(user, calendar, row),
      props ?? DEFAULT,
    );
  let body: string;
  if (root.ns === CALDAV && root.name === 'calendar-query') {
    const filter = child(root, CALDAV, 'filter');
    const rows = await listTodos(db, user.id, calendar);
    body = multistatus(
      rows
        .filter((row) => matchesFilter(filter, row))
        .map(one)
        .join(''),
    );
  } else if (root.ns === CALDAV && root.name === 'calendar-multiget') {
    const hrefs = childrenNamed(root, DAV, 'href').map((h) => h.text.trim());
    if (hrefs.length > MULTIGET_MAX)
      throw new HttpError(413, `A calendar-multiget names at most ${MULTIGET_MAX} hrefs.`);
    const out: string[] = [];
    for (const href of hrefs) {
      const named = targetOf(pathOf(href));
      const row =
        named.kind === 'object' && named.userId === String(user.id) && named.calendar === calendar.key
          ? await findTodoByName(db, user.id, calendar, named.name)
          : null;
      out.push(row ? one(row) : goneXml(href));
    }
    body = multistatus(out.join(''));
  } else if (root.ns === DAV && root.name === 'sync-collection') {
    body = await syncCollection(app, user, calendar, root, horizon, one);
  } else {
    throw new HttpError(403, `Outpost does not answer the ${root.name} report.`, {
      precondition: { ns: DAV, name: 'supported-report' },
    });
  }
  return reply.status(207).type('application/xml; charset=utf-8').send(body);
}

/** What a report answers of each VTODO when it names no properties. */
const DEFAULT = [{ ns: DAV, name: 'getetag' }];

/** An href's path: an absolute URL's path, or the href itself. */
function pathOf(href: string): string {
  try {
    return href.startsWith('/') ? href : new URL(href).pathname;
  } catch {
    return href;
  }
}

/**
 * sync-collection (RFC 6578, V6): without a token every VTODO of the calendar; with one, what changed
 * since it (a VTODO with its new ETag, or its href with 404 when it is gone). The new token is the
 * horizon read before anything else, so nothing written meanwhile is ever skipped.
 */
async function syncCollection(
  app: FastifyInstance,
  user: UserRow,
  calendar: Calendar,
  root: XmlElement,
  horizon: bigint,
  one: (row: TodoRow) => string,
): Promise<string> {
  const db = app.database.db;
  const tokenText = child(root, DAV, 'sync-token')?.text.trim() ?? '';
  const level = child(root, DAV, 'sync-level')?.text.trim() ?? '1';
  if (level !== '1' && level !== 'infinite')
    throw new HttpError(400, 'sync-level is 1 (a calendar holds no collections).');
  const token = syncTokenOf(horizon);
  if (tokenText === '') {
    const rows = await listTodos(db, user.id, calendar);
    return multistatus(rows.map(one).join(''), token);
  }
  const from = readSyncToken(tokenText);
  if (from === null || from > horizon)
    throw new HttpError(403, 'This sync token is not one of this server’s: sync again without one.', {
      precondition: { ns: DAV, name: 'valid-sync-token' },
    });
  const changes = await changesSince(db, user.id, calendar, from);
  const out = changes.map((change) =>
    change.kind === 'todo' ? one(change.row) : goneXml(objectHref(user, calendar.key, change.name)),
  );
  return multistatus(out.join(''), token);
}

/** The properties of a VTODO as its text has them (name → values), for a query's prop-filters. */
function propertiesOf(row: TodoRow): Map<string, string[]> {
  const text = unfold(calendarDataOf(row));
  const out = new Map<string, string[]>();
  let depth = 0;
  let inTodo = false;
  for (const line of text.split('\r\n')) {
    const upper = line.toUpperCase();
    if (upper === 'BEGIN:VTODO') {
      inTodo = true;
      continue;
    }
    if (!inTodo) continue;
    if (upper.startsWith('BEGIN:')) depth++;
    if (upper.startsWith('END:')) {
      if (depth === 0) break;
      depth--;
      continue;
    }
    if (depth > 0) continue;
    const name = (/^([A-Za-z0-9-]+)/.exec(line)?.[1] ?? '').toUpperCase();
    const colon = line.indexOf(':');
    const list = out.get(name) ?? [];
    list.push(colon === -1 ? '' : line.slice(colon + 1));
    out.set(name, list);
  }
  return out;
}

const DAY_MS = 86_400_000;
/** A UTC DATE-TIME of a time-range (`20261201T000000Z`) as milliseconds, or null. */
function instantOf(value: string | undefined): number | null {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value ?? '');
  if (!match) return null;
  return Date.UTC(
    Number(match[1]),
    Number(match[2]) - 1,
    Number(match[3]),
    Number(match[4]),
    Number(match[5]),
    Number(match[6]),
  );
}

/**
 * Whether a VTODO overlaps a time-range (RFC 4791 §9.9, for whole days): from its start date (or due
 * date) to the end of its due date (or start date); one with neither date overlaps every range.
 */
function overlaps(range: XmlElement, row: TodoRow): boolean {
  const start = instantOf(range.attrs.start) ?? Number.NEGATIVE_INFINITY;
  const end = instantOf(range.attrs.end) ?? Number.POSITIVE_INFINITY;
  const first = row.start_date ?? row.due_date;
  const last = row.due_date ?? row.start_date;
  if (first === null || last === null) return true;
  const from = Date.parse(`${first}T00:00:00Z`);
  const to = Date.parse(`${last}T00:00:00Z`) + DAY_MS;
  return from < end && to > start;
}

/** A text-match (RFC 4791 §9.7.5): a substring, without case, maybe negated. */
function textMatches(match: XmlElement, values: string[]): boolean {
  const needle = match.text.toLowerCase();
  const found = values.some((v) => v.toLowerCase().includes(needle));
  return match.attrs['negate-condition'] === 'yes' ? !found : found;
}

/** Whether a VTODO matches a calendar-query's filter (RFC 4791 §9.7): comp-, prop- and time-range filters. */
export function matchesFilter(filter: XmlElement | undefined, row: TodoRow): boolean {
  const top = child(filter, CALDAV, 'comp-filter');
  if (!top) return true;
  if (top.attrs.name?.toUpperCase() !== 'VCALENDAR') return false;
  if (child(top, CALDAV, 'is-not-defined')) return false;
  let props: Map<string, string[]> | null = null;
  const properties = () => {
    props ??= propertiesOf(row);
    return props;
  };
  for (const comp of childrenNamed(top, CALDAV, 'comp-filter')) {
    const name = comp.attrs.name?.toUpperCase();
    const absent = child(comp, CALDAV, 'is-not-defined') !== undefined;
    if (name !== 'VTODO') {
      if (!absent) return false;
      continue;
    }
    if (absent) return false;
    const range = child(comp, CALDAV, 'time-range');
    if (range && !overlaps(range, row)) return false;
    for (const sub of childrenNamed(comp, CALDAV, 'comp-filter')) {
      const hasAlarm = row.co_kept?.lines.some((line) => /^BEGIN:VALARM/i.test(line)) ?? false;
      const wanted = child(sub, CALDAV, 'is-not-defined') === undefined;
      if (sub.attrs.name?.toUpperCase() === 'VALARM' ? hasAlarm !== wanted : wanted) return false;
    }
    for (const prop of childrenNamed(comp, CALDAV, 'prop-filter')) {
      const values = properties().get(prop.attrs.name?.toUpperCase() ?? '') ?? [];
      if (child(prop, CALDAV, 'is-not-defined')) {
        if (values.length > 0) return false;
        continue;
      }
      if (values.length === 0) return false;
      const match = child(prop, CALDAV, 'text-match');
      if (match && !textMatches(match, values)) return false;
    }
  }
  return true;
}
