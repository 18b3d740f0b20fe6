/**
 * Issue 51 'Budgets': `npm run bench -- bearer-read [--pairs N] [--batch N]` (default 20 pairs of 20
 * requests). `GET /api/items` with a personal access token (Authorization: Bearer, made with
 * POST /api/tokens under a cookie session) against the same request with the cookie session, for
 * the same person and the same 200 items, alternating A B A B after two unrecorded pairs. Each side
 * of a pair is `batch` requests in a row, timed together. Figure: the median of the per-pair ratios
 * bearer/cookie with their spread; budget ≤ 1.05×. In-process (app.inject) on PGlite.
 */
import { rows, sql } from '../src/server/db/client';
import type { ApiTokenCreated } from '../src/shared/tokens';
import { openTestDatabase } from '../testkit/server';
import { hookApp, injectJson } from './lib/hookApp';
import { injectSignIn } from './lib/injectSession';
import { numberArg } from './lib/pageApi';
import { ms, type Pairs, ratioText } from './lib/pairs';
import { check, heading, info } from './lib/report';
import { median } from './lib/stats';

export async function run(args: string[] = []): Promise<void> {
  const pairs = Math.max(2, numberArg(args, '--pairs', 20));
  const batch = Math.max(1, numberArg(args, '--batch', 20));
  heading(
    `bearer-read: GET /api/items with a bearer token vs a cookie session (PGlite, ${pairs} pairs of ${batch})`,
  );
  const database = await openTestDatabase('pglite');
  const app = await hookApp(database);
  try {
    const me = await injectSignIn(app, '+15555550511', 'Bearer Reader');
    await database.db.execute(sql`INSERT INTO items (title, type, status, user_id, uuid)
      SELECT 'Todo ' || g, 'todo', 'pending', ${me.id}, gen_random_uuid() FROM generate_series(1, 200) g`);
    const token = await injectJson<ApiTokenCreated>(app, me, 'POST', '/api/tokens', {
      name: 'bench',
      scopes: ['read'],
    });
    const bearer = { headers: { authorization: `Bearer ${token.token}` } };
    const url = '/api/items?per_page=20';
    // Both sides must see the same page, or the ratio compares different work.
    const [a, b] = [
      await injectJson<{ data: { id: number }[] }>(app, me, 'GET', url),
      await injectJson<{ data: { id: number }[] }>(app, bearer, 'GET', url),
    ];
    if (JSON.stringify(a.data.map((i) => i.id)) !== JSON.stringify(b.data.map((i) => i.id)))
      throw new Error('the bearer token and the cookie session listed different items');
    const side = async (who: typeof me | typeof bearer) => {
      const started = performance.now();
      for (let n = 0; n < batch; n++) await injectJson(app, who, 'GET', url);
      return (performance.now() - started) / batch;
    };
    const p: Pairs = { ref: [], app: [], ratios: [] };
    for (let round = -2; round < pairs; round++) {
      const cookieMs = await side(me);
      const bearerMs = await side(bearer);
      if (round < 0) continue;
      p.ref.push(cookieMs);
      p.app.push(bearerMs);
      p.ratios.push(bearerMs / cookieMs);
    }
    const [used] = await rows<{ last_used_at: string | null }>(
      database.db,
      sql`SELECT last_used_at FROM personal_access_tokens WHERE id = ${token.id}`,
    );
    info('token last used', 'last_used_at', used?.last_used_at ? 'set' : 'not set');
    info('GET /api/items', 'median cookie / bearer', `${ms(median(p.ref))} / ${ms(median(p.app))}`);
    const ratio = median(p.ratios);
    check({
      subject: 'GET /api/items, bearer vs cookie',
      metric: 'ratio (spread)',
      value: ratioText(p),
      budget: '≤ 1.05×',
      ok: ratio <= 1.05,
    });
  } finally {
    await app.close();
    await database.close();
  }
}
