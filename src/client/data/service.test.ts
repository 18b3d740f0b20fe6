import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSyncStatusStore } from '../stores/syncStatusStore';
import { createOutpostClient } from './client';
import { mutualsService } from './contacts/mutualsService';
import { remindersService } from './items/remindersService';
import { manualConnectivity } from './net/connectivity';
import { connectivityService } from './net/connectivityService';
import { authAcrossTabsService } from './net/tabsService';
import { notificationsService } from './notifications/notificationsService';
import {
  composeParts,
  createServiceRunner,
  type Part,
  partOrder,
  type Service,
  type ServiceContext,
  startAll,
} from './service';
import { queueCountsService } from './store/queueCounts';
import { syncService } from './sync/syncService';

const named = (name: string, log: string[]): Service => ({
  name,
  start() {
    log.push(`start ${name}`);
    return () => log.push(`stop ${name}`);
  },
});

describe('services (start(ctx) → stop)', () => {
  it('start in order and stop in reverse', () => {
    const log: string[] = [];
    const stop = startAll([named('a', log), named('b', log), named('c', log)], {} as ServiceContext);
    stop();
    expect(log).toEqual(['start a', 'start b', 'start c', 'stop c', 'stop b', 'stop a']);
  });

  it('connectivity: the badge follows the network while started, and not after its stop', () => {
    const connectivity = manualConnectivity(false);
    const status = createSyncStatusStore(true);
    const stop = startAll([connectivityService], { connectivity, status } as unknown as ServiceContext);
    expect(status.getState().online).toBe(false);
    connectivity.set(true);
    expect(status.getState().online).toBe(true);
    stop();
    connectivity.set(false);
    expect(status.getState().online).toBe(true);
  });
});

describe('the service runner (W11)', () => {
  it('W11: stopAll stops every started service once, the last started first, and later waves start nothing', () => {
    const log: string[] = [];
    const runner = createServiceRunner({} as ServiceContext);
    expect(runner.start([named('a', log), named('b', log)])).toBe(true);
    expect(runner.start([named('c', log)])).toBe(true);
    runner.stopAll();
    runner.stopAll();
    expect(runner.start([named('d', log)])).toBe(false);
    expect(log).toEqual(['start a', 'start b', 'start c', 'stop c', 'stop b', 'stop a']);
  });
});

/** The client's module-level services, each replaced by one that logs its start and its stops. */
const CLIENT_SERVICES = [
  authAcrossTabsService,
  queueCountsService,
  mutualsService,
  remindersService,
  notificationsService,
  connectivityService,
  syncService,
];

function logServices(log: string[]): void {
  for (const service of CLIENT_SERVICES) {
    vi.spyOn(service, 'start').mockImplementation(() => {
      log.push(`start ${service.name}`);
      return () => log.push(`stop ${service.name}`);
    });
  }
}

/** A client on a fresh device whose server answers every request 401 (a guest's). */
function guestClient() {
  return createOutpostClient({
    dbName: `services-${Math.random()}`,
    indexedDB: new IDBFactory(),
    IDBKeyRange,
    connectivity: manualConnectivity(true),
    fetch: async () =>
      new Response(JSON.stringify({ message: 'Unauthenticated.' }), {
        status: 401,
        headers: { 'Content-Type': 'application/json' },
      }),
    locks: null,
  });
}

const started = (log: string[]) => log.filter((l) => l.startsWith('start ')).map((l) => l.slice(6));
const stopped = (log: string[]) => log.filter((l) => l.startsWith('stop ')).map((l) => l.slice(5));

describe('the client owns its services’ stop (W11)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('W11: close() stops every service start() started, each once, in reverse order', async () => {
    const log: string[] = [];
    logServices(log);
    const client = guestClient();
    client.screenShown();
    const stop = await client.start();
    expect(started(log)).toEqual(CLIENT_SERVICES.map((s) => s.name));
    client.close();
    stop();
    expect(stopped(log)).toEqual([...started(log)].reverse());
  });

  it('W11: close() before start() has finished stops what started, and no later wave starts', async () => {
    const log: string[] = [];
    logServices(log);
    const client = guestClient();
    const starting = client.start();
    // The first wave starts at once; the next waits for the first screen, and the close comes first.
    client.close();
    client.screenShown();
    (await starting)();
    expect(started(log)).toEqual(
      [authAcrossTabsService, queueCountsService, mutualsService].map((s) => s.name),
    );
    expect(stopped(log)).toEqual([...started(log)].reverse());
  });
});

describe('the client’s parts (name, needs, create)', () => {
  /** A part that logs its making and answers what it was handed. */
  const part = (name: string, needs: string[], log: string[], later: string[] = []): Part => ({
    name,
    needs,
    later,
    create(deps: Record<string, unknown>) {
      log.push(name);
      return { name, deps };
    },
  });

  it('makes each part after its needs, in list order where they leave a choice, each handed only what it named', () => {
    const log: string[] = [];
    const made = composeParts({ base: 1, unused: 2 }, [
      part('c', ['b', 'base'], log),
      part('a', [], log),
      part('b', ['a'], log),
      part('d', [], log),
    ] as const) as unknown as Record<string, { deps: Record<string, unknown> }>;
    expect(log).toEqual(['a', 'b', 'c', 'd']);
    expect(Object.keys(made.c?.deps ?? {})).toEqual(['b', 'base']);
    expect(made.c?.deps.b).toBe(made.b);
  });

  it('hands a later part as a getter, so two parts may call each other', () => {
    const log: string[] = [];
    const made = composeParts({}, [
      part('api', [], log, ['auth']),
      part('auth', ['api'], log),
    ] as const) as unknown as Record<string, { deps: Record<string, () => unknown> }>;
    expect(made.api?.deps.auth?.()).toBe(made.auth);
  });

  it('refuses a need no part makes, before making anything', () => {
    const log: string[] = [];
    expect(() => composeParts({}, [part('a', [], log), part('b', ['missing'], log)] as const)).toThrow(
      "Part 'b' needs 'missing', which no part makes",
    );
    expect(() => partOrder([], [part('a', [], log, ['gone'])])).toThrow("Part 'a' needs 'gone'");
    expect(log).toEqual([]);
  });

  it('refuses a circle of needs, naming it, before making anything', () => {
    const log: string[] = [];
    expect(() =>
      composeParts({}, [part('a', ['c'], log), part('b', ['a'], log), part('c', ['b'], log)] as const),
    ).toThrow('Parts need each other in a circle: a → c → b → a');
    expect(() => partOrder([], [part('self', ['self'], log)])).toThrow('circle: self → self');
    expect(log).toEqual([]);
  });

  it('refuses two parts of one name', () => {
    expect(() => partOrder(['db'], [part('db', [], [])])).toThrow("Two parts are named 'db'");
    expect(() => partOrder([], [part('a', [], []), part('a', [], [])])).toThrow("Two parts are named 'a'");
  });

  it('the client’s own parts compose: none is missing and none needs another in a circle', () => {
    const client = guestClient();
    expect(typeof client.send).toBe('function');
    expect(client.items.create).toBeTypeOf('function');
    expect(client.viewer()).toMatchObject({ userId: 0, isGuest: true });
    client.close();
  });
});
