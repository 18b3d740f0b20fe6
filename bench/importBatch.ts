/**
 * Issue 29 P19: `npm run bench -- import [items] [pairs]` (default 2,000 items, 3 pairs). A signed-in
 * device imports an Outpost export of N items (a guest's tree: campaigns, tasks, todos) until every
 * item is on the server and the queue is empty, alternating with the reference, the guest upgrade of
 * the same N items (bench/guestUpgrade.ts's round: sign-in until the upload's last batch is stored).
 * Both run the app's data layer on Node (fake-indexeddb) against the real server (PGlite, a child
 * process). Prints each pair, the median of the per-pair ratios import/upgrade with their spread
 * (min–max), and the requests the import made. Budget ≤ 2×.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createDevice, signIn } from '../testkit/client/harness';
import { guestDevice, phone, upgradeRound } from './guestUpgrade';
import { startAppServer } from './lib/appServer';
import { check, heading, info, printAlternatingSummary } from './lib/report';
import { median } from './lib/stats';

const BUDGET_RATIO = 2;

/** An export of N guest items, as a person would import it on another device. */
async function exportOf(url: string, count: number): Promise<{ name: string; text: string }> {
  const d = await guestDevice(url, count);
  const file = await (await d.client.transfer()).exportFile('json');
  d.client.close();
  return file;
}

/** A signed-in device imports the file: seconds from the import's start to every item on the server. */
async function importRound(
  url: string,
  file: { name: string; text: string },
  count: number,
): Promise<{ seconds: number; requests: number }> {
  const d = createDevice(url);
  await signIn(d, phone(), 'Bench Import');
  await d.client.engine.sync();
  const transfer = await d.client.transfer();
  const blob = new Blob([file.text]);
  const picked = {
    name: file.name,
    size: blob.size,
    text: async () => file.text,
    slice: (a: number, b: number) => blob.slice(a, b),
  } as unknown as File;
  const plan = await transfer.planImport(picked);
  d.control.requests.length = 0;
  const started = performance.now();
  const result = await transfer.runImport(plan);
  // The import starts one sync run for its batch upload: wait for it, then for any run it left.
  await d.client.lastSync();
  while ((await d.client.db.syncQueue.count()) > 0) {
    await d.client.engine.sync();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const seconds = (performance.now() - started) / 1000;
  if (result.created !== count) throw new Error(`imported ${result.created} of ${count}`);
  const requests = d.control.requests.filter((r) => r.method !== 'GET').length;
  d.client.close();
  return { seconds, requests };
}

export async function run(args: string[]): Promise<void> {
  const count = Number(args[0]) > 0 ? Number(args[0]) : 2000;
  const pairs = Number(args[1]) > 0 ? Number(args[1]) : 3;
  const clientDir = await mkdtemp(path.join(tmpdir(), 'outpost-bench-noclient-'));
  const server = await startAppServer(120_000, { clientDir });
  const load0 = loadavg();
  const started = Date.now();
  try {
    heading(
      `import of ${count.toLocaleString('en-US')} items signed in vs the guest upgrade of the same (PGlite)`,
    );
    const file = await exportOf(server.url, count);
    // One warm-up of each, unmeasured: the first requests compile the server's code paths.
    await upgradeRound(server.url, 50);
    await importRound(server.url, await exportOf(server.url, 50), 50);
    const ratios: number[] = [];
    const imports: number[] = [];
    const upgrades: number[] = [];
    let requests = 0;
    for (let p = 0; p < pairs; p++) {
      const up = await upgradeRound(server.url, count);
      const imp = await importRound(server.url, file, count);
      upgrades.push(up.seconds);
      imports.push(imp.seconds);
      ratios.push(imp.seconds / up.seconds);
      requests = imp.requests;
      info(
        `pair ${p + 1}`,
        'upgrade / import',
        `${up.seconds.toFixed(2)} s / ${imp.seconds.toFixed(2)} s (${imp.requests} writes), ${(imp.seconds / up.seconds).toFixed(2)}×`,
      );
    }
    const ratio = median(ratios);
    const spread = `${Math.min(...ratios).toFixed(2)}×–${Math.max(...ratios).toFixed(2)}×`;
    info('import', 'write requests', String(requests));
    check({
      subject: `signed-in import of ${count} items vs the guest upgrade of the same`,
      metric: `ratio (${pairs} pairs)`,
      value: `${ratio.toFixed(2)}× (${spread})`,
      budget: `≤ ${BUDGET_RATIO}×`,
      ok: ratio <= BUDGET_RATIO,
    });
    printAlternatingSummary(
      'import, medians (guest upgrade and import alternated; ratio = median of per-pair import/upgrade, min–max)',
      [
        [
          `import of ${count} items, signed in`,
          `${median(imports).toFixed(2)} s`,
          `${median(upgrades).toFixed(2)} s`,
          `${ratio.toFixed(2)}× (${spread})`,
          `≤ ${BUDGET_RATIO}×`,
          ratio <= BUDGET_RATIO ? 'PASS' : 'FAIL',
        ],
      ],
      load0,
      started,
    );
  } finally {
    await server.stop();
    await rm(clientDir, { recursive: true, force: true });
  }
}
