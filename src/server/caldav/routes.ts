import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '../auth/users';
import { HttpError } from '../http/errors';
import { enforce } from '../http/rateLimits';
import { davUser } from './auth';
import { bodyText, type DavTarget, notFound, targetOf } from './paths';
import { propfind } from './propfind';
import { report } from './report';
import { calendarDataOf, etagOf, findCalendar, findTodoByName } from './store';
import { deleteTodo, putTodo } from './write';
import { DAV, errorXml, escapeXml, multistatus, parseXml, tagOf } from './xml';

/**
 * CalDAV at /dav/ (ARCHITECTURE §4 'CalDAV', RFC 4791 with VTODO, RFC 6578 sync; SYNC.md V): the
 * phone's and desktop's own task apps as Outpost clients. Outside the /api conventions: no cookie, no
 * anti-forgery token, no JSON; the routes check their own credential (Basic auth with a `caldav`
 * token, auth.ts), so app.ts's request hook lets them through (`selfAuthenticated`). `CALDAV=off`
 * registers routes that answer 404 on every DAV path, so none falls through to the client's page.
 *
 * Resources: `/dav/` (the root), `/dav/principals/{user id}/` (the principal),
 * `/dav/calendars/{user id}/` (the calendar home), `/dav/calendars/{user id}/{outpost | campaign-{id}}/`
 * (a calendar) and `…/{name}.ics` (a task or todo as a VTODO).
 */

/** The WebDAV methods a DAV route answers besides GET, PUT, DELETE and OPTIONS. */
const DAV_METHODS = [
  'PROPFIND',
  'PROPPATCH',
  'REPORT',
  'MKCALENDAR',
  'MKCOL',
  'COPY',
  'MOVE',
  'LOCK',
  'UNLOCK',
];
const ALL_METHODS = ['GET', 'PUT', 'DELETE', 'OPTIONS', 'POST', 'PATCH', ...DAV_METHODS];
const ALLOW = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, REPORT';
const DAV_HEADER = '1, 3, calendar-access';

/** Whether the path's user is the signed-in one (any other is a 404, as a path that names nothing). */
const ownPath = (target: DavTarget, user: UserRow) =>
  !('userId' in target) || target.userId === String(user.id);

/** CalDAV's routes (or, with CALDAV=off, their 404s). */
export async function caldavRoutes(app: FastifyInstance): Promise<void> {
  for (const method of DAV_METHODS) app.addHttpMethod(method, { hasBody: true });
  const hidden = { hide: true };
  const config = { selfAuthenticated: true };

  if (!app.config.caldav) {
    const off = async (_request: FastifyRequest, reply: FastifyReply) =>
      reply.status(404).type('text/plain; charset=utf-8').send('CalDAV is off on this server.');
    for (const url of ['/.well-known/caldav', '/dav', '/dav/*'])
      app.route({ method: ALL_METHODS, url, schema: hidden, config, handler: off });
    return;
  }

  // Any body is text here: XML (PROPFIND, REPORT) or iCalendar (PUT), whatever its content type says.
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.addContentTypeParser(
    ['application/xml', 'text/xml', 'text/calendar'],
    { parseAs: 'string' },
    (_request, body, done) => done(null, body),
  );

  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    reply.header('DAV', DAV_HEADER);
    if (error instanceof HttpError) {
      reply.headers(error.headers);
      const precondition = error.extra.precondition as { ns: string; name: string } | undefined;
      return reply
        .status(error.statusCode)
        .type('application/xml; charset=utf-8')
        .send(errorXml(error.message, precondition));
    }
    const status = error.statusCode;
    if (status && status >= 400 && status < 500)
      return reply.status(status).type('application/xml; charset=utf-8').send(errorXml(error.message));
    request.log.error(error);
    return reply
      .status(503)
      .type('application/xml; charset=utf-8')
      .send(errorXml('The server could not complete the request. Please try again.'));
  });

  app.route({
    method: ALL_METHODS,
    url: '/.well-known/caldav',
    schema: hidden,
    config,
    handler: async (_request, reply) => reply.redirect('/dav/', 301),
  });

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('DAV', DAV_HEADER);
    const target = targetOf(request.url);
    if (request.method === 'OPTIONS') {
      return reply.header('Allow', ALLOW).header('Content-Length', '0').status(200).send();
    }
    // The credential first, for every path: an unsigned request learns nothing of what exists.
    const user = await davUser(app, request);
    if (target.kind === 'unknown' || !ownPath(target, user)) throw notFound();
    // A calendar app's writes count against its token's own budget, as a script's do (tokens/auth.ts).
    if (request.method === 'PUT' || request.method === 'DELETE')
      await enforce(app.limits.tokenWrites, request, 'changes with this token in a short time');
    switch (request.method) {
      case 'PROPFIND':
        return propfind(app, request, reply, user, target);
      case 'REPORT':
        return report(app, request, reply, user, target);
      case 'GET':
      case 'HEAD':
        return get(app, reply, user, target);
      case 'PUT':
        if (target.kind !== 'object') throw methodNotAllowed();
        return putTodo(app, request, reply, user, target);
      case 'DELETE':
        if (target.kind !== 'object')
          throw new HttpError(403, 'A calendar is an Outpost campaign: delete it in the app.');
        return deleteTodo(app, request, reply, user, target);
      case 'PROPPATCH':
        return proppatch(request, reply);
      case 'MKCALENDAR':
      case 'MKCOL':
        throw new HttpError(403, 'Make a campaign in the app: each campaign is a calendar here.', {
          precondition: { ns: DAV, name: 'resource-must-be-null' },
        });
      default:
        throw methodNotAllowed();
    }
  };
  for (const url of ['/dav', '/dav/*'])
    app.route({ method: ALL_METHODS, url, schema: hidden, config, handler });
}

/**
 * PROPPATCH (RFC 4918 §9.2): Outpost sets every property itself (a calendar's name is its campaign's
 * title), so each one asked is refused with 403 inside a 207, as apps that set a colour expect.
 */
function proppatch(request: FastifyRequest, reply: FastifyReply) {
  const root = parseXml(bodyText(request));
  if (!root || root.ns !== DAV || root.name !== 'propertyupdate')
    throw new HttpError(400, 'A PROPPATCH body is a DAV:propertyupdate element.');
  const props = root.children
    .filter((c) => c.ns === DAV && (c.name === 'set' || c.name === 'remove'))
    .flatMap((c) => c.children.filter((p) => p.ns === DAV && p.name === 'prop'))
    .flatMap((p) => p.children);
  let inner = '';
  for (const prop of props) inner += tagOf(prop.ns, prop.name).empty;
  const response = `<d:response><d:href>${escapeXml(request.url.split('?')[0] ?? '')}</d:href><d:propstat><d:prop>${inner}</d:prop><d:status>HTTP/1.1 403 Forbidden</d:status></d:propstat><d:responsedescription>Outpost sets these itself: rename a campaign in the app.</d:responsedescription></d:response>`;
  return reply.status(207).type('application/xml; charset=utf-8').send(multistatus(response));
}

const methodNotAllowed = () => new HttpError(405, 'Outpost does not do that here.', {}, { Allow: ALLOW });

/** GET (and HEAD) of a VTODO: its VCALENDAR with its ETag. */
async function get(app: FastifyInstance, reply: FastifyReply, user: UserRow, target: DavTarget) {
  if (target.kind !== 'object') throw methodNotAllowed();
  const db = app.database.db;
  const calendar = await findCalendar(db, user.id, target.calendar);
  if (!calendar) throw notFound();
  const row = await findTodoByName(db, user.id, calendar, target.name);
  if (!row) throw notFound();
  return reply
    .status(200)
    .header('ETag', etagOf(row))
    .type('text/calendar; charset=utf-8')
    .send(calendarDataOf(row));
}
