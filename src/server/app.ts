import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import { bearerToken } from '../shared/tokens';
import { activityRoutes } from './activity/routes';
import { createFileStore } from './attachments/createFileStore';
import type { FileStore } from './attachments/fileStore';
import { attachmentRoutes } from './attachments/routes';
import { attachmentChild } from './attachments/service';
import { authRoutes } from './auth/routes';
import { type SmsProvider, smsProviderFor } from './auth/sms';
import { seedSampleUsers } from './auth/users';
import { serveLiveBackups } from './backup/live';
import { preUpgradeBackup } from './backup/upgrade';
import { caldavRoutes } from './caldav/routes';
import { calendarRoutes } from './calendar/routes';
import { campaignRoutes } from './campaigns/routes';
import { commentRoutes } from './comments/routes';
import { commentChild } from './comments/service';
import { contactsRoutes } from './contacts/routes';
import { type Database, openDatabase } from './db/client';
import { type AppConfig, loadConfig, type TrustProxy } from './env';
import {
  type ChangeBus,
  campaignMembers,
  changeBusEffect,
  createLocalChangeBus,
  createPgChangeBus,
} from './events/changeBus';
import { eventRoutes } from './events/routes';
import { healthRoutes } from './health/routes';
import { AnonymousWriteLimit } from './http/anonymousWrites';
import './http/context';
import type { EmailOutbox } from './email/outbox';
import { registerEmail } from './email/routes';
import { HttpError } from './http/errors';
import type { ItemChildServers } from './http/itemChildren';
import { registerJsonParser } from './http/jsonBody';
import { logErrorsRedacted, redactedError, redactedRequest } from './http/logRedaction';
import { isApiPath, isSanctumPath, matchedRoute, normalizedPath } from './http/paths';
import { createRateLimits, enforce } from './http/rateLimits';
import { ReadCache } from './http/readCache';
import { registerSecurityHeaders } from './http/securityHeaders';
import { loadSession, SessionCache, sessionSecret, xsrfMatches } from './http/session';
import { registerStorableText } from './http/storableText';
import { inboundRoutes } from './inbound/routes';
import type { DnsResolver } from './inbound/service';
import { startInboundSmtp } from './inbound/smtp';
import { itemRoutes } from './items/routes';
import { trashRoutes } from './items/trashRoutes';
import { startSweeper } from './maintenance/sweep';
import { createMetrics, type Metrics } from './metrics/registry';
import { metricsRoutes } from './metrics/routes';
import { pushOutboxEffect } from './notifications/outboxSignal';
import { registerNotifications } from './notifications/routes';
import { oidcRoutes } from './oidc/routes';
import { isDocsPath, registerOpenApi } from './openapi/plugin';
import { passkeyRoutes } from './passkeys/routes';
import { sessionRoutes } from './sessions/routes';
import { shareRoutes } from './share/routes';
import { syncRoutes } from './sync/routes';
import { templateRoutes } from './templates/routes';
import { timeEntryRoutes } from './timeEntries/routes';
import { timeEntryChild } from './timeEntries/service';
import { authenticateBearer } from './tokens/auth';
import { declaredTokenAccess } from './tokens/policy';
import { tokenRoutes } from './tokens/routes';
import { viewRoutes } from './views/routes';
import { webhookEffect } from './webhooks/events';
import { registerWebhooks } from './webhooks/routes';

// What the resources add to the app (http/context.ts declares what http/ itself knows of it).
declare module 'fastify' {
  interface FastifyInstance {
    changes: ChangeBus;
    sms: SmsProvider;
    metrics: Metrics;
    /** Where the bytes of files on items live (attachments/fileStore.ts). */
    files: FileStore;
    /** The mail sender (email/outbox.ts): tests drain it and run the digests at a chosen instant. */
    emailOutbox: EmailOutbox;
  }
}

/** Seconds a 503 asks clients to wait: about as long as a database restart or failover takes. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Largest request body accepted, in bytes (1 MB). */
export const BODY_LIMIT = 1024 * 1024;
const STATE_CHANGING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

export interface BuildOptions {
  config?: Partial<AppConfig>;
  /** An open database; when absent one is opened from the config and closed with the app. */
  database?: Database;
  logger?: boolean;
  /** Where the log goes when `logger` is on (stdout by default); tests read it from here. */
  logStream?: { write(line: string): void };
  /** The fan-out of change events; by default in-process for PGlite, LISTEN/NOTIFY for PostgreSQL. */
  changes?: ChangeBus;
  /** Where one-time codes go; by default the provider the config names. */
  sms?: SmsProvider;
  clock?: () => Date;
  /** Where files' bytes go; by default the store the config names (DATA_DIR/files). */
  files?: FileStore;
  /** The DNS lookups of mail in's DMARC check (inbound/); by default the system's. Tests publish records. */
  dnsResolver?: DnsResolver;
}

/** Builds the Outpost server: API, anti-forgery, sessions and the client's pages. */
export async function buildApp(options: BuildOptions = {}): Promise<FastifyInstance> {
  const config: AppConfig = { ...loadConfig({}), clientDir: null, ...options.config };
  const database =
    options.database ??
    (await openDatabase({
      url: config.databaseUrl,
      dataDir: config.dataDir,
      sharedBuffers: config.embeddedSharedBuffers,
      // Before the first migration of a new version: a backup beside the data, or how to take one.
      beforeUpgrade: preUpgradeBackup(config, (line) => console.log(line)),
    }));
  if (config.seedSampleUsers) await seedSampleUsers(database.db);

  const app = Fastify({
    logger: options.logger
      ? {
          level: config.logLevel,
          // Invite and calendar-feed tokens are secrets, query strings may hold one: the log has
          // the path alone, those tokens redacted (SYNC.md F8). A failed query's bound values
          // (a webhook's whsec_ secret, anyone's text) never reach it (logRedaction.ts redactedError).
          serializers: { req: redactedRequest, err: redactedError },
          hooks: { logMethod: logErrorsRedacted },
          ...(options.logStream ? { stream: options.logStream } : {}),
        }
      : false,
    bodyLimit: BODY_LIMIT,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    routerOptions: { maxParamLength: 200 },
  });
  const changes =
    options.changes ??
    (database.kind === 'pg' && database.url
      ? createPgChangeBus(database.url, (error) =>
          app.log.warn({ err: error }, 'change listener lost its connection'),
        )
      : createLocalChangeBus((error) => app.log.error({ err: error }, 'change fan-out failed')));
  changes.resolveMembersWith((campaignIds) => campaignMembers(database.db, campaignIds));
  app.decorate('database', database);
  app.decorate('changes', changes);
  app.decorate('files', options.files ?? createFileStore(config));
  // Every write's side effects (ARCHITECTURE §6), in this order: a committed write's entries to push
  // and webhook deliveries count before the change bus tells its listeners (who poke those outboxes);
  // inside the transaction the webhooks' rows are written before the change bus reads who sees it.
  // Each declared child kind of an item (src/shared/itemChildren.ts) by its resource's part: the
  // sync page and the webhooks read every kind through it.
  const itemChildren: ItemChildServers = {
    comments: commentChild,
    time_entries: timeEntryChild,
    attachments: attachmentChild,
  };
  app.decorate('itemChildren', itemChildren);
  app.decorate('writeEffects', [pushOutboxEffect, webhookEffect(itemChildren), changeBusEffect(changes)]);
  const sessionCache = new SessionCache(config.sessionCacheMs);
  app.decorate('sessionCache', sessionCache);
  // E7: a session ended on any instance closes its streams here at once, with the reason.
  changes.onSessionsEnded((ids, reason) => {
    for (const id of ids) sessionCache.ended(id, reason);
  });
  const readCache = new ReadCache();
  app.decorate('readCache', readCache);
  changes.onChange((userIds) => (userIds === null ? readCache.reset() : readCache.changed(userIds)));
  if (!options.changes) app.addHook('onClose', () => changes.close());
  app.decorate('config', config);
  app.decorate('draining', false);
  const metrics = createMetrics(
    database,
    (error) => app.log.warn({ err: error }, 'a metric could not be read'),
    Boolean(config.metricsToken),
  );
  app.decorate('metrics', metrics);
  if (config.metricsToken) {
    // By the matched route's pattern, never the raw path: ids and junk paths would each be a series.
    app.addHook('onResponse', async (request, reply) => {
      metrics.observe(request.routeOptions.url, request.method, reply.statusCode, reply.elapsedTime / 1000);
    });
  }
  app.decorate('routeTable', []);
  app.decorateRequest('session', null);
  app.addHook('onRoute', (route) => {
    // The API reference page's own files (swagger-ui, openapi/plugin.ts) are static, outside the
    // API's hooks: not routes of the API, nor worth the route fuzzer's time.
    if (isDocsPath(route.url)) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      app.routeTable.push({
        method,
        url: route.url,
        public: route.config?.public === true,
        selfAuthenticated: route.config?.selfAuthenticated === true,
        tokenAccess: declaredTokenAccess(method, route.url, route.config) ?? null,
      });
    }
  });
  if (!options.database) app.addHook('onClose', () => database.close());
  // `npm run backup` asks this process for the embedded database it holds (backup/live.ts).
  if (!options.database && database.kind === 'pglite' && !config.dataDir.startsWith('memory://')) {
    await serveLiveBackups(app, config.dataDir);
  }

  app.decorate('sms', options.sms ?? smsProviderFor(config, (line) => app.log.info(line)));
  app.decorate('clock', options.clock ?? (() => new Date()));
  // The anonymous-session key, the same for every instance (http/session.ts): loaded once, here.
  await sessionSecret(database.db);
  // Expired sessions, codes, buckets and old idempotency records go every few minutes.
  const sweeper = startSweeper({
    db: database.db,
    log: app.log,
    clock: app.clock,
    sessionIdleMinutes: config.sessionIdleMinutes,
    files: app.files,
  });
  app.addHook('preClose', () => sweeper.stop());
  await app.register(fastifyCookie);
  // Limits are applied where they belong (sign-in, codes, writes), never as a blanket global.
  await app.register(fastifyRateLimit, { global: false });
  app.decorate('limits', createRateLimits(app));
  registerSecurityHeaders(app);

  // JSON nested deeper than a real body ever is gets a 400 before it is parsed.
  registerJsonParser(app);
  // Text the database cannot store (a NUL, a lone surrogate) is a 422 before any SQL, in any field.
  registerStorableText(app);
  const anonymousWrites =
    config.anonymousWritesPerMinute > 0 ? new AnonymousWriteLimit(config.anonymousWritesPerMinute) : null;
  // Writes without a signed-in session; a refused one counts against its address (onResponse).
  const anonymousWriteRequests = new WeakSet<FastifyRequest>();

  // Every check that can refuse a request runs here, in onRequest, before its body is read: a forged
  // or anonymous write costs at most a session lookup, never the parse of up to 1 MB of JSON. Routing
  // has happened, so the questions are asked of the route the router decoded and matched, never of
  // the raw URL ('/%61pi/login' is /api/login; '/API/me' and '//api/me' are unknown /api routes).
  app.addHook('onRequest', async (request) => {
    // The API's reference page and its files (openapi/plugin.ts): public, static, no session.
    if (request.routeOptions.config?.referencePage === true) return;
    if (request.routeOptions.config?.selfAuthenticated === true) return;
    const route = matchedRoute(request);
    if (route === null) {
      // An unknown route is a 404 for everyone, signed in or not, and its body is never read. A path
      // that reads as /api but that only the client's wildcard matched is one too, never the page.
      const json = request.is404 ? answersJsonNotFound(request) : isApiPath(normalizedPath(request.url));
      if (json) throw notFoundError(request);
      return;
    }
    const api = isApiPath(route);
    if (!api && !isSanctumPath(route)) return;
    const writes = STATE_CHANGING.has(request.method);
    // A personal access token answers for the whole request: cookies are not read at all, so a
    // bearer request carries no cookie authority and needs no anti-forgery token (tokens/auth.ts).
    const bearer = api ? bearerToken(request.headers.authorization) : null;
    if (bearer !== null) return authenticateBearer(app, request, bearer, route, writes);
    request.session = await loadSession(database.db, request, config.sessionIdleMinutes, app.sessionCache);
    if (!api) return;
    if (writes && !request.session?.user && anonymousWrites) {
      anonymousWriteRequests.add(request);
      anonymousWrites.check(request.ip);
    }
    if (writes && !xsrfMatches(request.session, request.headers['x-xsrf-token'])) {
      throw new HttpError(419, 'CSRF token mismatch.');
    }
    if (request.routeOptions.config?.public !== true && !request.session?.user) {
      throw new HttpError(401, 'Unauthenticated.');
    }
    if (writes && request.session?.user) {
      await enforce(app.limits.writes, request, 'changes in a short time');
    }
  });

  // Every 503 (a database that is down, an SMS provider that failed) says when to come back, so
  // clients and proxies retry after a pause instead of at once.
  app.addHook('onSend', async (_request, reply) => {
    if (reply.statusCode === 503 && !reply.hasHeader('retry-after')) {
      reply.header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    }
  });

  app.addHook('onResponse', async (request, reply) => {
    if (anonymousWrites && reply.statusCode >= 400 && anonymousWriteRequests.has(request)) {
      anonymousWrites.refused(request.ip);
    }
  });

  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      reply.headers(error.headers);
      return reply.status(error.statusCode).send({ message: error.message, ...error.extra });
    }
    const status = error.statusCode;
    if (status && status >= 400 && status < 500) {
      // Fastify's own 4xx (bad JSON, body too large, wrong content type) keep their status.
      const message =
        error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? `The request body is larger than ${BODY_LIMIT / 1024 / 1024} MB.`
          : error.message;
      return reply.status(status).send({ message });
    }
    request.log.error(error);
    // A lost database connection is the server's trouble, not a bug in the request: say so honestly.
    return reply
      .status(503)
      .send({ message: 'The server could not complete the request. Please try again.' });
  });

  // Every route registered from here on is in the OpenAPI document (GET /api/openapi.json, /api/docs).
  await registerOpenApi(app);
  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(itemRoutes, { prefix: '/api' });
  await app.register(trashRoutes, { prefix: '/api' });
  await app.register(activityRoutes, { prefix: '/api' });
  await app.register(campaignRoutes, { prefix: '/api' });
  await app.register(commentRoutes, { prefix: '/api' });
  await app.register(timeEntryRoutes, { prefix: '/api' });
  await app.register(attachmentRoutes, { prefix: '/api' });
  await app.register(contactsRoutes, { prefix: '/api' });
  await app.register(templateRoutes, { prefix: '/api' });
  await app.register(viewRoutes, { prefix: '/api' });
  await app.register(syncRoutes, { prefix: '/api' });
  await app.register(eventRoutes, { prefix: '/api' });
  await app.register(calendarRoutes);
  // CalDAV at /dav/ for the phone's and desktop's own task apps (caldav/routes.ts; CALDAV=off: 404s).
  await app.register(caldavRoutes);
  // The share target's POST before a service worker takes it (share/routes.ts).
  await app.register(shareRoutes);
  await app.register(tokenRoutes, { prefix: '/api' });
  await app.register(metricsRoutes);
  await app.register(sessionRoutes, { prefix: '/api' });
  await app.register(passkeyRoutes, { prefix: '/api' });
  await app.register(oidcRoutes, { prefix: '/api' });
  // Mail in: campaigns' secret addresses, POST /api/inbound/email, and the SMTP listener (inbound/).
  await app.register(inboundRoutes, { prefix: '/api', resolver: options.dnsResolver });
  const inboundSmtp = await startInboundSmtp(app, options.dnsResolver);
  app.addHook('preClose', () => inboundSmtp.close());
  // Notification and push routes, the push outbox and the reminder loop (stopped like the sweeper).
  const notifications = await registerNotifications(app);
  app.addHook('preClose', () => notifications.stop());
  // Webhook routes and the sender of their outbox (stopped like the push outbox).
  const webhooks = await registerWebhooks(app);
  app.addHook('preClose', () => webhooks.stop());
  // Email routes and the sender of their outbox (stopped like the others).
  const email = await registerEmail(app);
  app.decorate('emailOutbox', email.outbox);
  app.addHook('preClose', () => email.stop());

  const clientDir = config.clientDir ? path.resolve(config.clientDir) : null;
  const hasClient = clientDir !== null && existsSync(path.join(clientDir, 'index.html'));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: true,
      // '/' is a directory to the static plugin: without an index it answers 403 instead of the app.
      index: 'index.html',
      // The build writes .br and .gz beside each text file (vite.config.ts); served when accepted.
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    if (answersJsonNotFound(request)) {
      const error = notFoundError(request);
      return reply.status(error.statusCode).send({ message: error.message });
    }
    if (!hasClient) {
      return reply.status(404).type('text/plain').send('The client is not built. Run `npm start`.');
    }
    // Every client route is the single-page app.
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });

  return app;
}

/**
 * Whether an unknown route answers a JSON 404 rather than the app's page: anything but a GET, and
 * every path that reads as /api once decoded, lower-cased and with its slashes collapsed.
 */
function answersJsonNotFound(request: FastifyRequest): boolean {
  return request.method !== 'GET' || isApiPath(normalizedPath(request.url));
}

const notFoundError = (request: FastifyRequest) =>
  new HttpError(404, `No route ${request.method} ${request.url.split('?')[0]}.`);

/**
 * The TRUST_PROXY setting as Fastify's trustProxy. A hop count becomes a function: Fastify 5 reads a
 * bare number as trusting no one (it cannot check the nearest peer), so every client behind the proxy
 * would share the proxy's address and its rate limits.
 */
function fastifyTrustProxy(
  setting: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') {
    const hops = setting;
    return hops > 0 ? (_address, hop) => hop < hops : false;
  }
  return setting;
}
