import { createHash, randomBytes } from 'node:crypto';
import { setImmediate as yieldToOthers } from 'node:timers/promises';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { calendarLinkStateSchema, calendarTokenSchema } from '../../shared/apiSchemas';
import {
  FEED_FOOTER,
  feedEvent,
  feedHeader,
  foldedBytes,
  ruleCarriers,
  stampLine,
} from '../../shared/calendarFeed';
import { currentUser } from '../http/context';
import { enforce } from '../http/rateLimits';
import { iso } from '../http/serialize';
import { hashToken } from '../http/session';
import { errorAnswer, noContent, routeDoc } from '../openapi/routeDoc';
import { calendarTokenOf, calendarTokenOwner, FEED_PAGE, feedItems, replaceCalendarToken } from './store';

/** What every URL that is not a live feed answers (404), whatever was wrong with it. */
export const FEED_NOT_FOUND =
  'This calendar link is no longer valid. Make a new one in Outpost’s Preferences.';

/** How long a built feed is served as it is (F4): the Cache-Control max-age calendar apps get too. */
export const FEED_MAX_AGE_SECONDS = 300;

/** Requests one feed URL may make a minute (F4); calendar apps poll every few minutes at most. */
export const FEED_REQUESTS_PER_MINUTE = 20;

/** Octets of built feeds (plain and gzipped) kept in memory, one per person; the oldest goes first. */
const FEED_CACHE_BYTES = 64 * 1024 * 1024;

/** 128 random bits as base64url (22 characters): nobody guesses a feed URL. */
const FEED_TOKEN = /^[A-Za-z0-9_-]{22}$/;

const gzipAsync = promisify(gzip);

interface BuiltFeed {
  userId: number;
  /** The token it was built for: a replaced URL never gets the person's feed from here. */
  tokenKey: string;
  body: Buffer;
  gzipped: Promise<Buffer> | null;
  /** The plain body's ETag; the gzipped body's is the same with '-gzip' (F13). */
  etag: string;
  /**
   * When this content first appeared, in whole seconds (HTTP dates have no more), moved past the
   * second of the content before it (F13): the header never says a time later than the answer's, so
   * until that second has come it says the one before, and If-Modified-Since is compared with this.
   */
  lastModified: number;
  expiresAt: number;
  /** A change the owner sees was announced since the build: rebuild on the next request. */
  stale: boolean;
}

/**
 * Whether the request lists one of `etags` in If-None-Match (weak comparison, RFC 9110 §13.1.2).
 * Either coding's tag says the caller holds this content (F13).
 */
function etagMatches(header: string | undefined, etags: readonly string[]): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => etags.includes(tag.trim().replace(/^W\//, '')));
}

/** The gzipped body's ETag: a strong tag names one set of octets, and the codings differ (F13). */
const gzipTag = (etag: string) => `${etag.slice(0, -1)}-gzip"`;

/** Whether the client takes gzip (a q of 0 refuses it). */
function acceptsGzip(request: FastifyRequest): boolean {
  const header = request.headers['accept-encoding'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().split(';');
    if (coding?.trim().toLowerCase() !== 'gzip') return false;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    return q === undefined || Number(q) > 0;
  });
}

/**
 * The calendar feed (ARCHITECTURE §4, SYNC.md F1–F13): GET /api/calendar/token says whether the
 * person has a link and since when (the secret is kept hashed only), POST makes a new one and answers
 * its URL once, replacing the one before (which then answers 404);
 * GET /cal/{token}.ics needs no session and lists the items with a due or start date that the person created or is assigned and sees, as
 * text/calendar, built at most once per max-age (or change) and answered 304 when unchanged.
 */
export async function calendarRoutes(app: FastifyInstance): Promise<void> {
  const db = app.database.db;
  // By person: a replaced URL's feed goes with the next build, and memory holds one feed each.
  const built = new Map<number, BuiltFeed>();
  const building = new Map<number, Promise<BuiltFeed>>();
  let cachedBytes = 0;
  const sizeOf = (feed: BuiltFeed) => feed.body.length * 1.1;
  const forget = (userId: number) => {
    const feed = built.get(userId);
    if (feed) cachedBytes -= sizeOf(feed);
    built.delete(userId);
  };
  // A change the owner sees makes their cached feed stale: the next request rebuilds it.
  app.changes.onChange((userIds) => {
    for (const feed of built.values())
      if (userIds === null || userIds.includes(feed.userId)) feed.stale = true;
  });
  const perToken = app.createRateLimit({
    max: FEED_REQUESTS_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `cal:${hashToken(String((request.params as { file?: string }).file ?? ''))}`,
  });

  async function build(tokenKey: string, userId: number): Promise<BuiltFeed> {
    const items = await feedItems(db, userId);
    const carriers = ruleCarriers(items);
    const now = app.clock();
    const stamp = stampLine(now);
    const parts = [foldedBytes(feedHeader())];
    // The validator ignores the build's own instant, so an unchanged feed keeps its ETag.
    const hash = createHash('sha256').update(parts[0]!);
    for (let start = 0; start < items.length; start += FEED_PAGE) {
      if (start > 0) await yieldToOthers();
      let slice = '';
      for (const item of items.slice(start, start + FEED_PAGE))
        slice += feedEvent(item, stamp, carriers.has(item.id));
      parts.push(foldedBytes(slice));
      hash.update(slice.replaceAll(stamp, ''));
    }
    parts.push(foldedBytes(FEED_FOOTER));
    const etag = `"${hash.digest('base64url').slice(0, 27)}"`;
    const before = built.get(userId);
    const seconds = Math.floor(now.getTime() / 1000) * 1000;
    // F13: new content in the second of the content before it gets the next second, so a caller
    // holding the earlier one (If-Modified-Since that second) is not told it is current.
    const lastModified = !before
      ? seconds
      : before.etag === etag
        ? before.lastModified
        : Math.max(seconds, before.lastModified + 1000);
    const feed: BuiltFeed = {
      userId,
      tokenKey,
      body: Buffer.concat(parts),
      gzipped: null,
      etag,
      lastModified,
      expiresAt: now.getTime() + FEED_MAX_AGE_SECONDS * 1000,
      stale: false,
    };
    forget(userId);
    built.set(userId, feed);
    cachedBytes += sizeOf(feed);
    while (cachedBytes > FEED_CACHE_BYTES && built.size > 1) forget(built.keys().next().value as number);
    return feed;
  }

  /** The token's feed: the cached one while fresh, else one build shared by concurrent requests. */
  function feedFor(tokenKey: string, userId: number): Promise<BuiltFeed> {
    const cached = built.get(userId);
    if (cached && cached.tokenKey === tokenKey && !cached.stale && cached.expiresAt > app.clock().getTime())
      return Promise.resolve(cached);
    let pending = building.get(userId);
    if (!pending) {
      pending = build(tokenKey, userId).finally(() => building.delete(userId));
      building.set(userId, pending);
    }
    return pending;
  }

  const feedUrl = (request: FastifyRequest, token: string) =>
    `${request.protocol}://${request.host}/cal/${token}.ics`;

  // F9: whether a link is active and since when. The secret itself is never kept (only its hash):
  // the device that made the link keeps the URL and shows it; others say a link is active.
  const TAGS = ['Calendar'];
  const tokenDoc = routeDoc({
    summary: 'Whether a calendar feed link is active',
    description:
      'Whether a secret feed link is in use and since when. The URL itself is never kept on the server (only its hash), so it is not in this answer.',
    tags: TAGS,
    answers: { 200: { description: 'The link’s state.', schema: calendarLinkStateSchema } },
  });
  app.get('/api/calendar/token', { schema: tokenDoc }, async (request) => {
    const user = currentUser(request);
    const row = await calendarTokenOf(db, user);
    return { active: !!row, created_at: row ? iso(row.created_at) : null };
  });

  // F10: a new link replaces the one before, which answers 404 from then on. Its URL is in this
  // answer only: the server keeps its hash.
  const newTokenDoc = routeDoc({
    summary: 'Make a new calendar feed link',
    description:
      'A new secret URL (`/cal/{token}.ics`, 128 random bits), in this answer only; the old one answers 404 from then on.',
    tags: TAGS,
    answers: { 200: { description: 'The new link.', schema: calendarTokenSchema } },
  });
  app.post('/api/calendar/token', { schema: newTokenDoc }, async (request) => {
    const user = currentUser(request);
    const token = randomBytes(16).toString('base64url');
    const row = await replaceCalendarToken(db, user, token);
    return { url: feedUrl(request, token), active: true, created_at: iso(row.created_at) };
  });

  const feedDoc = routeDoc({
    summary: 'The calendar feed',
    description:
      'RFC 5545 iCalendar, no session needed (the URL is the secret): one all-day event per item with a due or start date that the link’s owner created or is assigned, from its start to its due date. Honours `If-None-Match` and `If-Modified-Since`; gzip when accepted (its ETag ends in `-gzip`).',
    tags: TAGS,
    params: z.object({ file: z.string().describe('`{token}.ics`') }),
    answers: {
      200: { description: 'The feed.', media: 'text/calendar' },
      304: noContent('Not modified since the copy the caller has.'),
      404: errorAnswer('Not a live feed (one answer whatever was wrong).'),
      429: errorAnswer('Too many requests for this feed.'),
    },
  });
  app.get<{ Params: { file: string } }>('/cal/:file', { schema: feedDoc }, async (request, reply) => {
    await enforce(perToken, request, 'requests for this calendar');
    const match = /^(.+)\.ics$/.exec(request.params.file);
    const token = match?.[1] ?? '';
    // Every URL that is not a live feed gets the same 404, whatever was wrong with it.
    const notFound = () => reply.status(404).send({ message: FEED_NOT_FOUND });
    if (!FEED_TOKEN.test(token)) return notFound();
    const key = hashToken(token);
    const owner = await calendarTokenOwner(db, key);
    if (!owner) return notFound();
    const feed = await feedFor(key, owner.user_id);
    const gzipped = acceptsGzip(request);
    const etag = gzipped ? gzipTag(feed.etag) : feed.etag;
    // Never a time later than the answer's own (RFC 9110 §8.8.2.1): until its second has come, the
    // one before (F13).
    const shownModified = Math.min(feed.lastModified, Math.floor(app.clock().getTime() / 1000) * 1000);
    reply
      .header('Cache-Control', `private, max-age=${FEED_MAX_AGE_SECONDS}`)
      .header('ETag', etag)
      .header('Last-Modified', new Date(shownModified).toUTCString())
      .header('Vary', 'Accept-Encoding');
    const ifNoneMatch = request.headers['if-none-match'];
    const since = Date.parse(String(request.headers['if-modified-since'] ?? ''));
    // If-Modified-Since counts only without If-None-Match (RFC 9110 §13.1.3).
    if (ifNoneMatch ? etagMatches(ifNoneMatch, [feed.etag, gzipTag(feed.etag)]) : since >= feed.lastModified)
      return reply.status(304).send();
    reply
      .type('text/calendar; charset=utf-8')
      .header('Content-Disposition', 'inline; filename="outpost.ics"');
    if (!gzipped) return reply.send(feed.body);
    feed.gzipped ??= gzipAsync(feed.body);
    return reply.header('Content-Encoding', 'gzip').send(await feed.gzipped);
  });
}
