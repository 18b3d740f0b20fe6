import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '../auth/users';
import { HttpError } from '../http/errors';
import {
  bodyText,
  calendarHref,
  type DavTarget,
  homeHref,
  notFound,
  objectHref,
  principalHref,
} from './paths';
import {
  type Calendar,
  calendarDataOf,
  etagOf,
  findCalendar,
  findTodoByName,
  listCalendars,
  listTodos,
  resourceName,
  syncHorizon,
  type TodoRow,
} from './store';
import {
  CALDAV,
  CALSERVER,
  child,
  DAV,
  escapeXml,
  multistatus,
  type PropValue,
  parseXml,
  responseXml,
  type XmlElement,
} from './xml';

/** A property a request names. */
export interface PropName {
  ns: string;
  name: string;
}

/** A sync token (V6): the database's horizon when the listing was read. */
export const SYNC_TOKEN_PREFIX = 'urn:outpost:sync:';
/** The sync token of a horizon. */
export const syncTokenOf = (horizon: bigint) => `${SYNC_TOKEN_PREFIX}${horizon.toString()}`;

/** The horizon a sync token names, or null when it is none of ours. */
export function readSyncToken(token: string): bigint | null {
  const match = /^urn:outpost:sync:(\d{1,19})$/.exec(token.trim());
  if (!match) return null;
  const value = BigInt(match[1]!);
  return value > 9_223_372_036_854_775_807n ? null : value;
}

/** The properties an `<allprop/>` (or an empty body) answers, by resource. */
const ALLPROP: PropName[] = [
  { ns: DAV, name: 'resourcetype' },
  { ns: DAV, name: 'displayname' },
  { ns: DAV, name: 'getetag' },
  { ns: DAV, name: 'getcontenttype' },
  { ns: DAV, name: 'current-user-principal' },
  { ns: DAV, name: 'sync-token' },
  { ns: CALDAV, name: 'calendar-home-set' },
  { ns: CALDAV, name: 'supported-calendar-component-set' },
  { ns: CALSERVER, name: 'getctag' },
];

/** The properties a `<prop>` element names; null for allprop or none. */
export function requestedProps(prop: XmlElement | undefined): PropName[] | null {
  if (!prop) return null;
  return prop.children.map((c) => ({ ns: c.ns, name: c.name }));
}

const href = (value: string) => `<d:href>${escapeXml(value)}</d:href>`;
const privileges = (write: boolean) =>
  `<d:privilege><d:read/></d:privilege>${
    write
      ? '<d:privilege><d:write/></d:privilege><d:privilege><d:write-content/></d:privilege><d:privilege><d:bind/></d:privilege><d:privilege><d:unbind/></d:privilege>'
      : ''
  }<d:privilege><d:read-current-user-privilege-set/></d:privilege>`;
const REPORTS = ['calendar-query', 'calendar-multiget']
  .map((r) => `<d:supported-report><d:report><c:${r}/></d:report></d:supported-report>`)
  .concat('<d:supported-report><d:report><d:sync-collection/></d:report></d:supported-report>')
  .join('');

/** Whether the person may write in a calendar: everyone but a campaign's viewer. */
export const writable = (calendar: Calendar) => calendar.role !== 'viewer';

/** What one resource answers of each property (undefined: it has no such property). */
type Values = (prop: PropName) => string | undefined;

const common =
  (user: UserRow): Values =>
  (prop) => {
    if (prop.ns !== DAV) return undefined;
    if (prop.name === 'current-user-principal') return href(principalHref(user));
    if (prop.name === 'principal-URL' || prop.name === 'owner') return href(principalHref(user));
    return undefined;
  };

function rootValues(user: UserRow): Values {
  return (prop) => {
    if (prop.ns === DAV && prop.name === 'resourcetype') return '<d:collection/>';
    if (prop.ns === DAV && prop.name === 'displayname') return 'Outpost';
    return common(user)(prop);
  };
}

function principalValues(user: UserRow): Values {
  return (prop) => {
    if (prop.ns === DAV && prop.name === 'resourcetype') return '<d:principal/>';
    if (prop.ns === DAV && prop.name === 'displayname') return escapeXml(user.name);
    if (prop.ns === CALDAV && prop.name === 'calendar-home-set') return href(homeHref(user));
    if (prop.ns === CALDAV && prop.name === 'calendar-user-address-set') return href(principalHref(user));
    return common(user)(prop);
  };
}

function homeValues(user: UserRow): Values {
  return (prop) => {
    if (prop.ns === DAV && prop.name === 'resourcetype') return '<d:collection/>';
    if (prop.ns === DAV && prop.name === 'displayname') return 'Calendars';
    if (prop.ns === CALDAV && prop.name === 'calendar-home-set') return href(homeHref(user));
    return common(user)(prop);
  };
}

/** A calendar's properties; its ctag and sync token are the horizon (V6). */
export function calendarValues(user: UserRow, calendar: Calendar, token: string): Values {
  return (prop) => {
    if (prop.ns === DAV) {
      switch (prop.name) {
        case 'resourcetype':
          return '<d:collection/><c:calendar/>';
        case 'displayname':
          return escapeXml(calendar.name);
        case 'sync-token':
          return escapeXml(token);
        case 'supported-report-set':
          return REPORTS;
        case 'current-user-privilege-set':
          return privileges(writable(calendar));
      }
    }
    if (prop.ns === CALDAV) {
      switch (prop.name) {
        case 'supported-calendar-component-set':
          return '<c:comp name="VTODO"/>';
        case 'supported-calendar-data':
          return '<c:calendar-data content-type="text/calendar" version="2.0"/>';
        case 'calendar-description':
          return escapeXml(
            calendar.campaignId === null
              ? 'Your tasks and todos outside campaigns'
              : `The tasks and todos of ${calendar.name}`,
          );
      }
    }
    if (prop.ns === CALSERVER && prop.name === 'getctag') return escapeXml(token);
    return common(user)(prop);
  };
}

/** A VTODO's properties (calendar-data too, which REPORTs ask for). */
export function objectValues(user: UserRow, calendar: Calendar, row: TodoRow): Values {
  let etag: string | undefined;
  return (prop) => {
    if (prop.ns === DAV) {
      switch (prop.name) {
        case 'resourcetype':
          return '';
        case 'getetag':
          etag ??= etagOf(row);
          return escapeXml(etag);
        case 'getcontenttype':
          return 'text/calendar; charset=utf-8; component=VTODO';
        case 'getlastmodified':
          return new Date(row.updated_at).toUTCString();
        case 'displayname':
          return escapeXml(row.title);
        case 'current-user-privilege-set':
          return privileges(writable(calendar));
      }
    }
    if (prop.ns === CALDAV && prop.name === 'calendar-data') return escapeXml(calendarDataOf(row));
    return common(user)(prop);
  };
}

/** One response for a resource: every asked property it has (200) and those it lacks (404). */
export function answer(path: string, values: Values, props: PropName[] | null): string {
  const asked = props ?? ALLPROP;
  const found: PropValue[] = [];
  const missing: PropName[] = [];
  for (const prop of asked) {
    // calendar-data is never part of allprop (RFC 4791 §9.6).
    if (props === null && prop.ns === CALDAV && prop.name === 'calendar-data') continue;
    const xml = values(prop);
    if (xml === undefined) {
      if (props !== null) missing.push(prop);
    } else found.push({ ...prop, xml });
  }
  return responseXml(path, found, missing);
}

/** The Depth header: 0 or 1 (`infinity` is read as 1: a calendar holds no collections). */
export function depthOf(request: FastifyRequest): 0 | 1 {
  const header = request.headers.depth;
  const value = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase();
  if (value === '0') return 0;
  return 1;
}

/** PROPFIND (RFC 4918 §9.1) on the root, the principal, the home, a calendar or a VTODO. */
export async function propfind(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  target: DavTarget,
): Promise<FastifyReply> {
  const root = parseXml(bodyText(request));
  if (root && !(root.ns === DAV && root.name === 'propfind'))
    throw new HttpError(400, 'A PROPFIND body is a DAV:propfind element.');
  const props = requestedProps(child(root, DAV, 'prop'));
  const depth = depthOf(request);
  const db = app.database.db;
  const responses: string[] = [];
  switch (target.kind) {
    case 'root':
      responses.push(answer('/dav/', rootValues(user), props));
      if (depth === 1) responses.push(answer(principalHref(user), principalValues(user), props));
      break;
    case 'principal':
      responses.push(answer(principalHref(user), principalValues(user), props));
      break;
    case 'home': {
      responses.push(answer(homeHref(user), homeValues(user), props));
      if (depth === 1) {
        const token = syncTokenOf(await syncHorizon(db));
        for (const calendar of await listCalendars(db, user.id))
          responses.push(
            answer(calendarHref(user, calendar.key), calendarValues(user, calendar, token), props),
          );
      }
      break;
    }
    case 'calendar': {
      const token = syncTokenOf(await syncHorizon(db));
      const calendar = await findCalendar(db, user.id, target.calendar);
      if (!calendar) throw notFound();
      responses.push(answer(calendarHref(user, calendar.key), calendarValues(user, calendar, token), props));
      if (depth === 1)
        for (const row of await listTodos(db, user.id, calendar))
          responses.push(
            answer(
              objectHref(user, calendar.key, resourceName(row)),
              objectValues(user, calendar, row),
              props,
            ),
          );
      break;
    }
    case 'object': {
      const calendar = await findCalendar(db, user.id, target.calendar);
      const row = calendar && (await findTodoByName(db, user.id, calendar, target.name));
      if (!calendar || !row) throw notFound();
      responses.push(
        answer(objectHref(user, calendar.key, resourceName(row)), objectValues(user, calendar, row), props),
      );
      break;
    }
    default:
      throw notFound();
  }
  return reply
    .status(207)
    .type('application/xml; charset=utf-8')
    .send(multistatus(responses.join('')));
}
