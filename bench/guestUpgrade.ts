/**
 * Moving a guest's 1,000 items to a new account (U1, issue 13 item 14): the real server (`npm start`
 * on a fresh PGlite folder, a child process) and the app's data layer on Node (fake-indexeddb), from
 * sign-in until the upload's last batch is stored on the device. Alternates with a reference: the
 * same 1,000 items sent straight to `POST /api/items/batch` in the same number of requests, with no
 * data layer around them, so the two figures together say what the client itself costs.
 * `npm run bench -- guest-upgrade [items] [rounds]`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ITEM_BATCH_MAX } from '../src/shared/schemas';
import { createCookieFetch } from '../testkit/client/cookieFetch';
import { createDevice, type Device, signIn } from '../testkit/client/harness';
import { upgradeBatchSize } from './lib/appData';
import { startAppServer } from './lib/appServer';
import { check, heading, info } from './lib/report';
import { median } from './lib/stats';

const BUDGET_S = 5;
let phoneCounter = 0;
export const phone = () =>
  `+1555${String(Date.now() % 1_000_000).padStart(6, '0')}${(phoneCounter++ % 10).toString()}`;

/** The guest's items on a fresh device: campaigns with tasks with todos, and loose todos (as a guest makes them). */
export async function guestDevice(url: string, count: number): Promise<Device> {
  const d = createDevice(url);
  d.client.auth.getState().initGuest();
  let made = 0;
  const make = async (input: Parameters<typeof d.client.items.create>[0]) => {
    made++;
    return d.client.items.create(input);
  };
  while (made < count) {
    const campaign = await make({ title: `Campaign ${made}`, type: 'campaign' });
    for (let t = 0; t < 3 && made < count; t++) {
      const task = await make({ title: `Task ${made}`, type: 'task', parent_id: campaign.id });
      for (let n = 0; n < 5 && made < count; n++) {
        await make({
          title: `Todo ${made}`,
          type: 'todo',
          parent_id: task.id,
          ...(n === 0 ? { status: 'completed' as const } : {}),
        });
      }
    }
    if (made < count) await make({ title: `Loose ${made}`, type: 'todo' });
  }
  return d;
}

/** The device's guest items moved to a new account: seconds from sign-in to an empty queue. */
export async function upgradeRound(
  url: string,
  count: number,
): Promise<{ seconds: number; requests: number }> {
  const d = await guestDevice(url, count);
  const started = performance.now();
  await signIn(d, phone(), 'Bench Upgrade');
  while ((await d.client.db.syncQueue.count()) > 0) await d.client.engine.sync();
  const seconds = (performance.now() - started) / 1000;
  const requests = d.control.requests.filter((r) => r.url.endsWith('/api/items/batch')).length;
  const progress = d.client.status.getState().upgrade;
  if (!progress?.done || progress.sent !== count)
    throw new Error(`upload incomplete: ${JSON.stringify(progress)}`);
  const server = await d.client.api.get<{ total: number }>('/items?per_page=1');
  if (server.data.total < count / 10)
    throw new Error(`the server lists ${server.data.total} top-level items`);
  d.client.close();
  return { seconds, requests };
}

/** The reference: sign in, then the same shape of items straight to the batch route, `batches` requests. */
async function directRound(url: string, count: number, batches: number): Promise<number> {
  const jar = createCookieFetch();
  const json = async (method: string, route: string, body?: unknown) => {
    const token = jar.cookie('XSRF-TOKEN');
    const res = await jar.fetch(`${url}${route}`, {
      method,
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        ...(token ? { 'X-XSRF-TOKEN': token } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<unknown>;
  };
  const items: Record<string, unknown>[] = [];
  let campaign = '';
  let task = '';
  for (let n = 0; items.length < count; n++) {
    const uuid = crypto.randomUUID();
    const kind = n % 20;
    if (kind === 0) {
      campaign = uuid;
      items.push({ uuid, title: `Campaign ${n}`, type: 'campaign' });
    } else if (kind === 19) items.push({ uuid, title: `Loose ${n}`, type: 'todo' });
    else if ((kind - 1) % 6 === 0) {
      task = uuid;
      items.push({ uuid, title: `Task ${n}`, type: 'task', parent_uuid: campaign });
    } else items.push({ uuid, title: `Todo ${n}`, type: 'todo', parent_uuid: task });
  }
  const started = performance.now();
  await jar.fetch(`${url}/sanctum/csrf-cookie`);
  await json('POST', '/api/login', { phone: phone(), name: 'Bench Direct' });
  const size = Math.ceil(count / batches);
  for (let at = 0; at < count; at += size)
    await json('POST', '/api/items/batch', { items: items.slice(at, at + size) });
  return (performance.now() - started) / 1000;
}

export async function run(args: string[]): Promise<void> {
  const count = Number(args[0]) > 0 ? Number(args[0]) : 1000;
  const rounds = Number(args[1]) > 0 ? Number(args[1]) : 3;
  const clientDir = await mkdtemp(path.join(tmpdir(), 'outpost-bench-noclient-'));
  // The default rate limits stay on: the upload must fit them as a real one does.
  const server = await startAppServer(120_000, { clientDir });
  try {
    heading(
      `${count.toLocaleString('en-US')} guest items to a new account (PGlite, ${rounds} rounds, alternating)`,
    );
    const batches = Math.ceil(count / upgradeBatchSize(count));
    info(
      'guest upgrade',
      'batch size',
      `${upgradeBatchSize(count)} (at most ${ITEM_BATCH_MAX}), ${batches} requests`,
    );
    const upgrade: number[] = [];
    const direct: number[] = [];
    // One warm-up of each, unmeasured: the first requests compile the server's code paths.
    await upgradeRound(server.url, Math.min(count, 50));
    await directRound(server.url, Math.min(count, 50), 1);
    for (let r = 0; r < rounds; r++) {
      const up = await upgradeRound(server.url, count);
      upgrade.push(up.seconds);
      const ref = await directRound(server.url, count, up.requests);
      direct.push(ref);
      info(
        `round ${r + 1}`,
        'upgrade / direct',
        `${up.seconds.toFixed(2)} s (${up.requests} requests) / ${ref.toFixed(2)} s`,
      );
    }
    const seconds = median(upgrade);
    check({
      subject: `guest upgrade, ${count} items`,
      metric: 'sign-in to all on the server (median)',
      value: `${seconds.toFixed(2)} s`,
      budget: `< ${BUDGET_S} s`,
      ok: seconds < BUDGET_S,
    });
    info('reference', 'same items, same requests, no data layer (median)', `${median(direct).toFixed(2)} s`);
  } finally {
    await server.stop();
    await rm(clientDir, { recursive: true, force: true });
  }
}
