import { describe, expect, it } from 'vitest';
import { createSyncStatusStore } from '../stores/syncStatusStore';
import { manualConnectivity } from './net/connectivity';
import { connectivityService } from './net/connectivityService';
import { type Service, type ServiceContext, startAll } from './service';

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
