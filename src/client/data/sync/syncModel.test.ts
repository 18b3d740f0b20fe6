import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientTestServer, startClientTestServer } from '../../../../testkit/client/server';
import { checkSyncModel } from '../../../../testkit/client/syncModel';

let server: ClientTestServer;
beforeAll(async () => {
  server = await startClientTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('sync model', () => {
  it('N2: loses nothing, doubles nothing (one next occurrence per completed one) and converges after random offline edits on two devices', async () => {
    const runs = Number(process.env.SYNC_MODEL_RUNS ?? 100);
    const { executed, totals } = await checkSyncModel(server, runs);
    expect(executed).toBe(runs);
    // The random cases must really exercise the hard paths, not just pass vacuously.
    expect(totals.serverItems).toBeGreaterThan(runs);
    expect(totals.occurrences).toBeGreaterThan(runs / 10);
  }, 600_000);
});
