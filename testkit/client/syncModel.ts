import fc from 'fast-check';
import type { LocalItem } from '../../src/client/data/store/types';
import { type Item, type ItemType, isTombstone, type SyncChange, type SyncPage } from '../../src/shared/item';
import { createDevice, type Device, settled, signIn } from './harness';
import { type ClientTestServer, freshPhone } from './server';

/** One step of the model: a user action or a fault, on device 0 or 1. */
export type Step =
  | { k: 'create'; dev: number; type: ItemType; parent: number }
  | { k: 'update'; dev: number; pick: number; field: 'title' | 'description' }
  | { k: 'delete'; dev: number; pick: number }
  | { k: 'move'; dev: number; pick: number; parent: number }
  | { k: 'toggle'; dev: number; pick: number }
  /** Completes the repeating todo's earliest open occurrence (both devices pick the same one). */
  | { k: 'completeOccurrence'; dev: number }
  | { k: 'offline'; dev: number }
  | { k: 'online'; dev: number }
  | { k: 'sync'; dev: number }
  | { k: 'dropResponse'; dev: number }
  | { k: 'deliverTwice'; dev: number }
  | { k: 'restart' };

const dev = fc.integer({ min: 0, max: 1 });
const pick = fc.nat({ max: 20 });

export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({
      k: fc.constant('create' as const),
      dev,
      type: fc.constantFrom<ItemType>('campaign', 'task', 'todo'),
      parent: pick,
    }),
    weight: 5,
  },
  {
    arbitrary: fc.record({
      k: fc.constant('update' as const),
      dev,
      pick,
      field: fc.constantFrom('title' as const, 'description' as const),
    }),
    weight: 4,
  },
  { arbitrary: fc.record({ k: fc.constant('delete' as const), dev, pick }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant('move' as const), dev, pick, parent: pick }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant('toggle' as const), dev, pick }), weight: 2 },
  { arbitrary: fc.record({ k: fc.constant('completeOccurrence' as const), dev }), weight: 2 },
  { arbitrary: fc.record({ k: fc.constant('offline' as const), dev }), weight: 3 },
  { arbitrary: fc.record({ k: fc.constant('online' as const), dev }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant('sync' as const), dev }), weight: 3 },
  { arbitrary: fc.record({ k: fc.constant('dropResponse' as const), dev }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant('deliverTwice' as const), dev }), weight: 1 },
  { arbitrary: fc.constant({ k: 'restart' as const }), weight: 1 },
);

export interface ModelCase {
  steps: Step[];
  /** How the final round resolves conflicts. */
  resolveLocal: boolean;
}

export const caseArb: fc.Arbitrary<ModelCase> = fc.record({
  steps: fc.array(stepArb, { minLength: 1, maxLength: 10 }),
  resolveLocal: fc.boolean(),
});

export interface ModelOutcome {
  lost: string[];
  duplicated: string[];
  mismatched: string[];
  /** How much the case exercised: items on the server, conflicts resolved, changes dropped with a toast. */
  stats: { serverItems: number; conflicts: number; toasts: number; occurrences: number };
}

const isWrite = (method: string) => method !== 'GET';
const tokenOf = (title: string) => title.split('~')[0] ?? title;

async function liveLocal(d: Device): Promise<LocalItem[]> {
  const all = await d.client.db.items.toArray();
  return all.filter((i) => i._deleted === 0).sort((a, b) => (a.uuid ?? '').localeCompare(b.uuid ?? ''));
}

async function serverLive(d: Device): Promise<Item[]> {
  const out = new Map<number, SyncChange>();
  let cursor = '';
  for (let page = 0; page < 100; page++) {
    const { data } = await d.client.api.get<SyncPage>(`/sync?cursor=${encodeURIComponent(cursor)}`);
    for (const item of data.items) out.set(item.id, item);
    cursor = data.cursor;
    if (!data.has_more) break;
  }
  return [...out.values()].filter((i): i is Item => !isTombstone(i));
}

const shape = (i: Item) =>
  JSON.stringify([
    i.id,
    i.title,
    i.description,
    i.status,
    i.parent_id,
    i.assigned_to,
    i.version,
    i.due_date,
    i.recurrence ?? null,
    i.uuid,
  ]);

/** The repeating todo of the shared family: its occurrences share the title token, one per due date. */
const SERIES = 's4';

/** Runs one case on two fresh devices of a fresh user and reports what was lost, doubled or different. */
export async function runModelCase(server: ClientTestServer, c: ModelCase): Promise<ModelOutcome> {
  const phone = freshPhone();
  const devices = [createDevice(server.url), createDevice(server.url)] as const;
  try {
    for (const d of devices) await signIn(d, phone, 'Model');
    const created = new Map<string, Set<string>>(); // token → tokens of every parent it ever had
    const deleted = new Set<string>();
    let counter = 0;
    let conflictCount = 0;
    // A small shared family both devices know, so concurrent edits of one item actually happen.
    const [first, second] = devices;
    const root = await first.client.items.create({ title: 's1', type: 'campaign' });
    await first.client.items.create({ title: 's2', type: 'task', parent_id: root.id });
    await first.client.items.create({ title: 's3', type: 'todo', parent_id: root.id });
    created.set('s1', new Set());
    created.set('s2', new Set(['s1']));
    created.set('s3', new Set(['s1']));
    await first.client.items.create({
      title: SERIES,
      type: 'todo',
      due_date: '2031-01-01',
      recurrence: 'FREQ=DAILY',
    });
    created.set(SERIES, new Set());
    // Writes resolve once stored and push in the background (W2): the family reaches the server first.
    await settled(first);
    await second.client.engine.sync();

    for (const step of c.steps) {
      if (step.k === 'restart') {
        await server.restart();
        continue;
      }
      const d = devices[step.dev]!;
      const items = await liveLocal(d);
      const at = (n: number) => (items.length === 0 ? undefined : items[n % items.length]);
      try {
        switch (step.k) {
          case 'create': {
            const allowed =
              step.type === 'task' ? ['campaign'] : step.type === 'todo' ? ['task', 'campaign'] : [];
            const parents = items.filter((i) => allowed.includes(i.type));
            const parent = parents.length === 0 ? undefined : parents[step.parent % (parents.length + 1)];
            const token = `m${++counter}`;
            created.set(token, new Set(parent ? [tokenOf(parent.title)] : []));
            await d.client.items.create({ title: token, type: step.type, parent_id: parent?.id ?? null });
            break;
          }
          case 'update': {
            const item = at(step.pick);
            if (!item) break;
            const n = ++counter;
            await d.client.items.update(
              item.id,
              step.field === 'title' ? { title: `${tokenOf(item.title)}~${n}` } : { description: `d${n}` },
            );
            break;
          }
          case 'delete': {
            const item = at(step.pick);
            if (!item) break;
            deleted.add(tokenOf(item.title));
            await d.client.items.remove(item.id);
            break;
          }
          case 'move': {
            const todos = items.filter((i) => i.type === 'todo');
            const item = todos.length === 0 ? undefined : todos[step.pick % todos.length];
            if (!item) break;
            const parents = items.filter((i) => i.type === 'task' || i.type === 'campaign');
            const parent = parents.length === 0 ? undefined : parents[step.parent % (parents.length + 1)];
            if (parent) created.get(tokenOf(item.title))?.add(tokenOf(parent.title));
            await d.client.items.update(item.id, { parent_id: parent?.id ?? null });
            break;
          }
          case 'toggle': {
            const item = at(step.pick);
            if (item) await d.client.items.toggle(item.id);
            break;
          }
          case 'completeOccurrence': {
            const open = items
              .filter((i) => tokenOf(i.title) === SERIES && i.status !== 'completed')
              .sort((a, b) => (a.due_date ?? '').localeCompare(b.due_date ?? ''));
            if (open[0]) await d.client.items.complete(open[0].id);
            break;
          }
          case 'offline':
            d.goOffline();
            break;
          case 'online':
            // Coming online triggers a sync in the app.
            d.goOnline();
            await d.client.engine.sync();
            break;
          case 'sync':
            await d.client.engine.sync();
            break;
          case 'dropResponse':
            d.control.dropNextResponse = (method) => isWrite(method);
            break;
          case 'deliverTwice':
            d.control.duplicateNext = (method) => isWrite(method);
            break;
        }
        if (process.env.MODEL_DEBUG) {
          for (const x of devices) {
            const rows = (await x.client.db.items.toArray()).map(
              (i) =>
                `${i.title}:${i.status}:v${i.version}:${i._syncStatus}${i._deleted ? ':del' : ''}${i._conflict ? `:C-${i._conflict}` : ''}${i._predicted ? ':pred' : ''}`,
            );
            console.log(
              JSON.stringify(step),
              x.name,
              rows.join(' | '),
              'q',
              await x.client.db.syncQueue.count(),
            );
          }
        }
      } catch (e) {
        if (process.env.MODEL_DEBUG) console.log('threw', String(e));
        // Screens show these as toasts; the model only cares what the data looks like afterwards.
      }
      // A step's background push lands before the next step, as the step's own run did before W2.
      await settled(...devices);
    }

    // Reconnect everything and sync until both devices are quiet.
    for (const d of devices) {
      d.goOnline();
      d.control.dropNextResponse = null;
      d.control.duplicateNext = null;
    }
    for (let round = 0; round < 8; round++) {
      let busy = false;
      for (const d of devices) {
        await d.client.engine.sync();
        const conflicts = await d.client.engine.listConflicts();
        if (conflicts.length > 0) {
          busy = true;
          conflictCount += conflicts.length;
          await d.client.engine.resolveConflicts(
            new Map(
              conflicts.map((x) => [x.itemId, c.resolveLocal ? ('local' as const) : ('remote' as const)]),
            ),
          );
        }
        if ((await d.client.db.syncQueue.count()) > 0) busy = true;
      }
      if (!busy && round > 0) break;
    }
    // A last run each, after any run still under way (a push's or an event's): a run that finds the
    // device busy pulls nothing, and on a loaded machine one may still be going.
    for (const d of devices) {
      await d.client.engine.settled();
      while ((await d.client.engine.sync()).outcome === 'busy') await d.client.engine.settled();
    }

    const live = await serverLive(devices[0]);
    const toasts = devices.reduce((n, d) => n + d.client.toasts.getState().queue.length, 0);
    const outcome: ModelOutcome = {
      lost: [],
      duplicated: [],
      mismatched: [],
      stats: {
        serverItems: live.length,
        conflicts: conflictCount,
        toasts,
        occurrences: live.filter((i) => i.series_uuid).length,
      },
    };
    const byToken = new Map<string, number>();
    for (const item of live) byToken.set(tokenOf(item.title), (byToken.get(tokenOf(item.title)) ?? 0) + 1);
    // N2: a series has at most one occurrence per due date, however often and wherever it was completed.
    const perOccurrence = new Map<string, number>();
    for (const item of live) {
      const key = `${tokenOf(item.title)}@${item.due_date ?? ''}`;
      perOccurrence.set(key, (perOccurrence.get(key) ?? 0) + 1);
    }
    for (const [key, count] of perOccurrence) if (count > 1) outcome.duplicated.push(key);

    const mayBeGone = (token: string, seen = new Set<string>()): boolean => {
      if (deleted.has(token)) return true;
      if (seen.has(token)) return false;
      seen.add(token);
      for (const parent of created.get(token) ?? []) if (mayBeGone(parent, seen)) return true;
      return false;
    };
    for (const token of created.keys())
      if (!byToken.has(token) && !mayBeGone(token)) outcome.lost.push(token);

    const expected = live.map(shape).sort().join('\n');
    for (const d of devices) {
      const local = (await liveLocal(d))
        .map((i) => shape(i))
        .sort()
        .join('\n');
      const pending = await d.client.db.syncQueue.count();
      if (local !== expected || pending > 0) {
        outcome.mismatched.push(`${d.name}: pending=${pending}\n local:\n${local}\n server:\n${expected}`);
      }
    }
    return outcome;
  } finally {
    await settled(...devices);
    for (const d of devices) d.client.close();
  }
}

/** Runs `runs` random cases; every one must lose nothing, double nothing and converge. */
export async function checkSyncModel(server: ClientTestServer, runs: number, seed?: number) {
  let executed = 0;
  const totals = { serverItems: 0, conflicts: 0, toasts: 0, occurrences: 0 };
  let worst: ModelOutcome | null = null;
  await fc.assert(
    fc.asyncProperty(caseArb, async (c) => {
      executed++;
      const outcome = await runModelCase(server, c);
      totals.serverItems += outcome.stats.serverItems;
      totals.conflicts += outcome.stats.conflicts;
      totals.toasts += outcome.stats.toasts;
      totals.occurrences += outcome.stats.occurrences;
      const ok = outcome.lost.length + outcome.duplicated.length + outcome.mismatched.length === 0;
      if (!ok) {
        worst = outcome;
        throw new Error(
          `lost=${outcome.lost.join(',')} duplicated=${outcome.duplicated.join(',')}\n${outcome.mismatched.join('\n')}`,
        );
      }
    }),
    { numRuns: runs, ...(seed === undefined ? {} : { seed }), endOnFailure: true },
  );
  return { executed, worst, totals };
}
