/**
 * Issue 67's budgets: `npm run bench -- caldav-sync [--pairs N]` (10 pairs by default). On the embedded
 * database (PGlite in the server's own thread, the worst case), in-process (app.inject), one campaign
 * holds 5,000 items (100 tasks of 49 todos each, the family cap); a calendar app signs in with a
 * `caldav` token.
 *
 * - First listing: REPORT sync-collection without a token (every VTODO's href and ETag), against the
 *   same campaign listed through the API (GET /api/items with the filter `#campaign`, 100 a page, a
 *   different `today` each time so no page comes from the read cache). Budget: the listing's median
 *   under 1 s.
 * - Incremental: one item's title changed through the API, then REPORT sync-collection with the token
 *   from before it (it must name exactly that one href), against the app's own pull of the same change
 *   (GET /api/sync from the cursor before it). Budget: the sync's median under 50 ms.
 *
 * Alternating (reference, then CalDAV) after two unrecorded pairs; medians, ratios and their spread.
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { createTestApp } from '../testkit/server';
import { type InjectSession, injectSignIn } from './lib/injectSession';
import { numberArg } from './lib/pageApi';
import { ms, ratioText } from './lib/pairs';
import { check, heading, info, printAlternatingSummary } from './lib/report';
import { median } from './lib/stats';

const TASKS = 100;
const TODOS_PER_TASK = 49;

const SYNC_BODY = (token: string) =>
  `<?xml version="1.0" encoding="utf-8"?><d:sync-collection xmlns:d="DAV:"><d:sync-token>${token}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`;

async function api(app: FastifyInstance, who: InjectSession, method: string, url: string, body?: unknown) {
  const response = await app.inject({
    method: method as 'GET',
    url,
    headers: { cookie: who.cookie, 'x-xsrf-token': who.xsrf },
    ...(body === undefined ? {} : { payload: body as object }),
  });
  if (response.statusCode >= 400)
    throw new Error(`${method} ${url} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
  return response;
}

interface Series {
  ref: number[];
  app: number[];
  ratios: number[];
}
const series = (): Series => ({ ref: [], app: [], ratios: [] });
const spread = (values: number[]) =>
  `${ms(median(values))} (${ms(Math.min(...values))}–${ms(Math.max(...values))})`;

export async function run(args: string[]): Promise<void> {
  const pairs = numberArg(args, '--pairs', 10);
  const started = Date.now();
  const load0 = loadavg();
  heading(
    `caldav-sync: sync-collection on a ${(TASKS * (TODOS_PER_TASK + 1)).toLocaleString('en-US')}-item campaign (PGlite, in-process), ${pairs} alternating pairs`,
  );
  const harness = await createTestApp('pglite');
  const { app } = harness;
  try {
    const owner = await injectSignIn(app, '+15555550671', 'CalDAV Owner');
    const campaign = (
      await api(app, owner, 'POST', '/api/items', { title: 'Sync bench', type: 'campaign' })
    ).json() as {
      id: number;
    };
    const seeding = performance.now();
    for (let t = 0; t < TASKS; t++) {
      const taskUuid = randomUUID();
      const items = [
        { uuid: taskUuid, title: `Task ${t}`, type: 'task', parent_id: campaign.id, due_date: '2030-01-15' },
        ...Array.from({ length: TODOS_PER_TASK }, (_, n) => ({
          uuid: randomUUID(),
          title: `Todo ${t}.${n} — ünïcödé`,
          type: 'todo',
          parent_uuid: taskUuid,
          labels: n % 3 === 0 ? ['home'] : [],
          priority: (n % 4) + 1,
        })),
      ];
      await api(app, owner, 'POST', '/api/items/batch', { items });
    }
    info('seed', 'time', ms(performance.now() - seeding));
    const minted = (
      await api(app, owner, 'POST', '/api/tokens', { name: 'Bench phone', scopes: ['caldav'] })
    ).json() as {
      token: string;
    };
    const authorization = `Basic ${Buffer.from(`bench:${minted.token}`).toString('base64')}`;
    const calendarPath = `/dav/calendars/${owner.id}/campaign-${campaign.id}/`;

    const syncReport = async (token: string) => {
      const t0 = performance.now();
      const response = await app.inject({
        method: 'REPORT' as 'GET',
        url: calendarPath,
        headers: { authorization, 'content-type': 'application/xml', depth: '1' },
        payload: SYNC_BODY(token),
      });
      const elapsed = performance.now() - t0;
      if (response.statusCode !== 207) throw new Error(`sync-collection answered ${response.statusCode}`);
      const hrefs = response.body.split('<d:response>').length - 1;
      const next = /<d:sync-token>(.*?)<\/d:sync-token>/.exec(response.body)?.[1] ?? '';
      return { ms: elapsed, hrefs, token: next, bytes: response.rawPayload.length };
    };

    // The reference listing: the same campaign's items through the API, every page.
    let day = 0;
    const apiListing = async () => {
      const today = new Date(Date.UTC(2031, 0, 1) + day++ * 86_400_000).toISOString().slice(0, 10);
      const t0 = performance.now();
      let total = 0;
      for (let page = 1; ; page++) {
        const response = await api(
          app,
          owner,
          'GET',
          `/api/items?filter=${encodeURIComponent('#"Sync bench"')}&per_page=100&page=${page}&today=${today}`,
        );
        const body = response.json() as { data: unknown[]; last_page: number };
        total += body.data.length;
        if (page >= body.last_page) break;
      }
      return { ms: performance.now() - t0, total };
    };

    // The app's own pull: drained once, then one page after each change.
    let cursor = '';
    const pull = async () => {
      const t0 = performance.now();
      for (;;) {
        const response = await api(
          app,
          owner,
          'GET',
          `/api/sync${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        const body = response.json() as { cursor: string; has_more: boolean; items: unknown[] };
        cursor = body.cursor;
        if (!body.has_more) return { ms: performance.now() - t0, items: body.items.length };
      }
    };
    await pull();

    const first = await syncReport('');
    const listed = await apiListing();
    info('first listing', 'hrefs / body', `${first.hrefs} / ${(first.bytes / 1e6).toFixed(2)} MB`);
    info('API listing (reference)', 'items', String(listed.total));
    if (first.hrefs !== TASKS * (TODOS_PER_TASK + 1))
      throw new Error(`the first listing named ${first.hrefs} hrefs, not ${TASKS * (TODOS_PER_TASK + 1)}`);

    const full = series();
    const incremental = series();
    const changed = (
      await api(app, owner, 'GET', `/api/items?parent_id=${campaign.id}&per_page=5`)
    ).json() as {
      data: { id: number }[];
    };
    let edit = 0;
    for (let pair = -2; pair < pairs; pair++) {
      const ref = await apiListing();
      const app1 = await syncReport('');
      // One change, then each side's incremental read of it.
      const before = app1.token;
      const id = changed.data[edit % changed.data.length]!.id;
      await api(app, owner, 'PATCH', `/api/items/${id}`, { title: `Renamed ${edit++}` });
      const refPull = await pull();
      const app2 = await syncReport(before);
      if (app2.hrefs !== 1) throw new Error(`the incremental sync named ${app2.hrefs} hrefs, not 1`);
      if (pair < 0) continue;
      full.ref.push(ref.ms);
      full.app.push(app1.ms);
      full.ratios.push(app1.ms / ref.ms);
      incremental.ref.push(refPull.ms);
      incremental.app.push(app2.ms);
      incremental.ratios.push(app2.ms / refPull.ms);
    }

    const fullMedian = median(full.app);
    const incrementalMedian = median(incremental.app);
    check({
      subject: `first sync-collection listing of ${first.hrefs} VTODOs`,
      metric: 'median (range)',
      value: spread(full.app),
      budget: '< 1 s',
      ok: fullMedian < 1_000,
    });
    check({
      subject: 'incremental sync-collection after one change (1 href)',
      metric: 'median (range)',
      value: spread(incremental.app),
      budget: '< 50 ms',
      ok: incrementalMedian < 50,
    });
    printAlternatingSummary(
      `caldav-sync, ${pairs} pairs (reference first in each pair)`,
      [
        [
          'first listing',
          spread(full.app),
          `${spread(full.ref)} GET /api/items #campaign, 50 pages`,
          ratioText(full),
          '< 1 s',
          fullMedian < 1_000 ? 'ok' : 'OVER',
        ],
        [
          'incremental, one change',
          spread(incremental.app),
          `${spread(incremental.ref)} GET /api/sync from the cursor`,
          ratioText(incremental),
          '< 50 ms',
          incrementalMedian < 50 ? 'ok' : 'OVER',
        ],
      ],
      load0,
      started,
    );
  } finally {
    await harness.close();
  }
}
