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
import { createServiceRunner, type Service, type ServiceContext, startAll } from './service';
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
