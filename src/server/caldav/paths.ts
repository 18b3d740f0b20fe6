import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors';

/** What a path under /dav/ names. */
export type DavTarget =
  | { kind: 'root' }
  | { kind: 'principal'; userId: string }
  | { kind: 'home'; userId: string }
  | { kind: 'calendar'; userId: string; calendar: string }
  | { kind: 'object'; userId: string; calendar: string; name: string }
  | { kind: 'unknown' };

/** The resource a request's path names (percent-decoded segments; trailing slashes ignored). */
export function targetOf(url: string): DavTarget {
  const path = url.split('?')[0] ?? '';
  if (!/^\/dav(\/|$)/.test(path)) return { kind: 'unknown' };
  let segments: string[];
  try {
    segments = path
      .slice(4)
      .split('/')
      .filter((s) => s !== '')
      .map((s) => decodeURIComponent(s));
  } catch {
    return { kind: 'unknown' };
  }
  if (segments.some((s) => s === '.' || s === '..' || s.includes('/'))) return { kind: 'unknown' };
  const [top, userId, calendar, name, ...rest] = segments;
  if (top === undefined) return { kind: 'root' };
  if (rest.length > 0 || userId === undefined) return { kind: 'unknown' };
  if (top === 'principals')
    return calendar === undefined ? { kind: 'principal', userId } : { kind: 'unknown' };
  if (top !== 'calendars') return { kind: 'unknown' };
  if (calendar === undefined) return { kind: 'home', userId };
  if (name === undefined) return { kind: 'calendar', userId, calendar };
  return { kind: 'object', userId, calendar, name };
}

/** The person's principal. */
export const principalHref = (user: { id: number }) => `/dav/principals/${user.id}/`;
/** The person's calendar home, which holds their calendars. */
export const homeHref = (user: { id: number }) => `/dav/calendars/${user.id}/`;
/** One of the person's calendars (`outpost` or `campaign-{id}`). */
export const calendarHref = (user: { id: number }, key: string) => `/dav/calendars/${user.id}/${key}/`;
/** A VTODO's resource in a calendar, its name percent-encoded. */
export const objectHref = (user: { id: number }, key: string, name: string) =>
  `${calendarHref(user, key)}${encodeURIComponent(name)}`;

/** The 404 of a path that names nothing the person can see (the same for what does not exist). */
export const notFound = () =>
  new HttpError(404, 'Nothing here: no such calendar or item, or not one you can see.');

/** The request's body as text (a DAV body is XML or iCalendar); 415 for anything a parser made otherwise. */
export function bodyText(request: FastifyRequest): string {
  const body = request.body;
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  throw new HttpError(415, 'A DAV body is XML or iCalendar text.');
}
