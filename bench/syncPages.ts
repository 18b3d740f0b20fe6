/**
 * `npm run bench -- sync-pages [--pulls N] [--memory]`: the server's side of a fresh device's
 * 10,000-item bootstrap (bench/lib/seed.ts's account), in this process: the real app (buildApp) over
 * PGlite in a data folder on disk as `npm start` keeps it (`--memory`: in memory, as the tests), its
 * GET /api/sync pages asked through app.inject from an empty cursor until has_more is false, N times
 * after one untimed pull (the prepared statements' first custom plans). Per pull, medians: wall time,
 * this process's CPU time, and the embedded engine's file-size calls (fs.fstatSync, what its disk asks
 * each time PostgreSQL wants a file's length: a scan's start); then each statement's share.
 *
 * No budget: it is the server's part of local-writes' A (issue 69), which runs beside the browser on
 * the same cores there. `--replay-pages` there leaves it out; this measures it alone, for an A/B of a
 * server change (run it in two worktrees, alternating).
 */
import fs, { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SQL } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { openDatabase } from '../src/server/db/client';
import { tempDiskStore } from '../testkit/files';
import { TestClient } from '../testkit/testClient';
import { numberArg } from './lib/pageApi';
import { heading, info } from './lib/report';
import { BENCH_NAME, BENCH_PHONE, seedBenchData } from './lib/seed';
import { median } from './lib/stats';

export async function run(args: string[] = []): Promise<void> {
  const pulls = Math.max(3, numberArg(args, '--pulls', 9));
  const memory = args.includes('--memory');
  const folder = memory ? null : mkdtempSync(path.join(tmpdir(), 'outpost-sync-pages-'));
  const database = await openDatabase({ dataDir: folder ?? 'memory://' });
  const files = await tempDiskStore();
  const app = await buildApp({ database, config: { seedSampleUsers: false }, files: files.store });
  // Counted around each statement: the engine reaches the disk through node:fs.
  let fileSizeCalls = 0;
  const fstatSync = fs.fstatSync;
  try {
    await app.ready();
    await seedBenchData(database.db);
    const client = new TestClient(app);
    await client.login(BENCH_PHONE, BENCH_NAME);
    const cookie = client.cookieHeader();

    const statements = new Map<string, { runs: number; ms: number; fileSizeCalls: number }>();
    const db = database.db as unknown as { execute: (query: unknown) => Promise<unknown> };
    const execute = db.execute.bind(db);
    db.execute = async (query: unknown) => {
      const started = performance.now();
      const calls = fileSizeCalls;
      const result = await execute(query);
      // Named by its opening words, read without rendering it (this runs inside the timed pulls): a
      // prepared statement carries its text, drizzle's SQL its first chunk.
      const own = (query as { sql?: unknown }).sql;
      const first = (query as Partial<SQL>).queryChunks?.[0] as { value?: unknown } | undefined;
      const text =
        typeof own === 'string' ? own : Array.isArray(first?.value) ? first.value.join('') : 'other';
      const key = text.slice(0, 140).replace(/\s+/g, ' ').slice(0, 70);
      const entry = statements.get(key) ?? { runs: 0, ms: 0, fileSizeCalls: 0 };
      entry.runs += 1;
      entry.ms += performance.now() - started;
      entry.fileSizeCalls += fileSizeCalls - calls;
      statements.set(key, entry);
      return result;
    };
    (fs as { fstatSync: unknown }).fstatSync = (...rest: Parameters<typeof fstatSync>) => {
      fileSizeCalls += 1;
      return fstatSync(...rest);
    };

    const pull = async () => {
      const started = performance.now();
      const cpu = process.cpuUsage();
      const calls = fileSizeCalls;
      let cursor = '';
      let pages = 0;
      let items = 0;
      for (;;) {
        const response = await app.inject({
          method: 'GET',
          url: `/api/sync?cursor=${encodeURIComponent(cursor)}`,
          headers: { cookie },
        });
        if (response.statusCode !== 200) throw new Error(`sync answered ${response.statusCode}`);
        const page = response.json<{ items: unknown[]; cursor: string; has_more: boolean }>();
        pages += 1;
        items += page.items.length;
        cursor = page.cursor;
        if (!page.has_more) break;
      }
      const used = process.cpuUsage(cpu);
      return {
        ms: performance.now() - started,
        cpuMs: (used.user + used.system) / 1000,
        fileSizeCalls: fileSizeCalls - calls,
        pages,
        items,
      };
    };

    await pull();
    statements.clear();
    const runs = [];
    for (let i = 0; i < pulls; i++) runs.push(await pull());
    const first = runs[0];
    const subject = `a 10,000-item bootstrap's pages, server alone (${memory ? 'in memory' : 'on disk'})`;
    heading(`sync-pages: ${subject}, ${pulls} pulls`);
    info(subject, 'pages, items', `${first?.pages}, ${first?.items}`);
    info(subject, 'wall per pull (median)', `${median(runs.map((r) => r.ms)).toFixed(0)} ms`);
    info(subject, 'CPU per pull (median)', `${median(runs.map((r) => r.cpuMs)).toFixed(0)} ms`);
    info(subject, 'file-size calls per pull', String(median(runs.map((r) => r.fileSizeCalls))));
    for (const [text, entry] of [...statements].sort((a, b) => b[1].ms - a[1].ms).slice(0, 4))
      console.log(
        `  ${(entry.ms / pulls).toFixed(0).padStart(5)} ms, ${String(Math.round(entry.fileSizeCalls / pulls)).padStart(6)} file-size calls a pull: ${entry.runs / pulls} × ${text}`,
      );
  } finally {
    (fs as { fstatSync: unknown }).fstatSync = fstatSync;
    await app.close();
    await database.close();
    await files.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  }
}
