import type { Table } from 'dexie';
import { describe, expect, it } from 'vitest';
import { testDevices } from '../../../../testkit/client/devices';
import { type Device, settled, signIn } from '../../../../testkit/client/harness';
import { freshPhone } from '../../../../testkit/client/server';
import { clearDeviceStores, KEPT_WHEN_CLEARED } from './deviceWipe';

// ARCHITECTURE §6 'Narrow contexts': clearing local data clears every store of the schema but a named
// keep-list, and a sign-in as another account leaves nothing of the first (SYNC.md W10). Each store is
// filled from db.tables, so a store added later is covered without being named here.

const { device } = testDevices();

const NUMERIC = new Set(['id', 'item_id', 'parent_id', 'user_id', 'assigned_to', 'owner', 'seq', 'parent']);
let next = 900_000;

/** A row of `table` with every key and index path filled, its text `marker`, as `owner`'s. */
function rowFor(table: Table, marker: string, owner: number, syncStatus: string): Record<string, unknown> {
  const row: Record<string, unknown> = {
    title: marker,
    body: marker,
    value: marker,
    type: 'todo',
    status: 'pending',
    _syncStatus: syncStatus,
    _deleted: 0,
    owner,
    user_id: owner,
    created_at: '2026-11-25T10:00:00.000Z',
    updated_at: '2026-11-25T10:00:00.000Z',
  };
  const { primKey, indexes } = table.schema;
  const paths = [...(primKey.auto ? [] : [primKey]), ...indexes].flatMap((index) =>
    typeof index.keyPath === 'string' ? [index.keyPath] : (index.keyPath ?? []),
  );
  next += 1;
  for (const path of paths) {
    if (path in row && path !== 'id') continue;
    row[path] = NUMERIC.has(path) ? next : path === 'key' ? `${marker}-${next}` : `${marker}-${path}-${next}`;
  }
  return row;
}

/** Every store's rows as text, by store. */
async function storeTexts(d: Device): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of d.client.db.tables) out[table.name] = JSON.stringify(await table.toArray());
  return out;
}

describe('wiping the device covers every store of the schema', () => {
  it('W10: Clear Local Data leaves every store empty but the keep-list', async () => {
    const d = device();
    const { db } = d.client;
    for (const table of db.tables) await table.add(rowFor(table, 'secret comment body', 1, 'synced'));
    for (const table of db.tables) expect(await table.count(), table.name).toBeGreaterThan(0);
    await clearDeviceStores(d.client.db);
    for (const table of db.tables) {
      if (KEPT_WHEN_CLEARED.includes(table.name)) continue;
      expect(await table.count(), table.name).toBe(0);
    }
    // Every store of the schema was filled and checked, the comments' bodies among them (issue 49).
    expect(db.tables.map((t) => t.name)).toContain('comments');
  });

  it("W10: a sign-in as another account leaves nothing of the first in any store, and keeps the guest's rows", async () => {
    const d = device();
    await signIn(d, freshPhone(), 'First');
    const first = d.client.auth.getState().user.id;
    await d.client.auth.getState().logout();
    await settled(d);
    const { db } = d.client;
    for (const table of db.tables) {
      await table.add(rowFor(table, 'first account secret', first, 'synced'));
      await table.add(rowFor(table, 'first account pending', first, 'pending'));
    }
    const guestNote = await d.client.items.create({ title: 'Guest note', type: 'todo' });
    const before = await storeTexts(d);
    for (const table of db.tables) expect(before[table.name], table.name).toContain('first account');

    await signIn(d, freshPhone(), 'Second');
    await settled(d);
    const after = await storeTexts(d);
    for (const table of db.tables) {
      if (KEPT_WHEN_CLEARED.includes(table.name)) continue;
      expect(after[table.name], table.name).not.toContain('first account');
    }
    // The guest's note moved over to the new account.
    expect((await db.items.where('uuid').equals(guestNote.uuid!).first())?.title).toBe('Guest note');
  });
});
