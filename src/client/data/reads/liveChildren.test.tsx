// @vitest-environment jsdom
import { configure, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { eachTestClient, renderWithApp } from '../../../../testkit/client/renderWithApp';
import { plainDexie } from '../../../../testkit/plainDexie';
import type { OutpostClient } from '../client';
import { type LiveQuery, type LocalItem, useLive } from '../live';

// Each write goes through IndexedDB and a live re-read: on a loaded machine that takes over a second.
configure({ asyncUtilTimeout: 5_000 });

let client: OutpostClient;

eachTestClient((made) => {
  client = made;
});

const childrenQuery: LiveQuery<number, LocalItem[]> = (reads, parentId) => reads.children(parentId);

/** A parent's children as a screen lists them, live. */
function Children({ parentId }: { parentId: number }) {
  const children = useLive(childrenQuery, parentId);
  return children ? <p data-testid="children">{children.map((c) => c.title).join(', ') || 'none'}</p> : null;
}

const shown = () => screen.getByTestId('children').textContent;

describe('a live read of children (reads/live.ts)', () => {
  it('I11: of a server or guest id, reads them once, raw, and still shows a child that joins, changes or leaves', async () => {
    const campaign = await client.items.create({ title: 'Garden', type: 'campaign' });
    const dig = await client.items.create({ title: 'Dig', type: 'todo', parent_id: campaign.id });
    const elsewhere = await client.items.create({ title: 'Shed', type: 'campaign' });
    const fence = await client.items.create({ title: 'Fence', type: 'todo', parent_id: elsewhere.id });
    expect(campaign.id).toBeGreaterThanOrEqual(0);
    // Dexie's query is what the live read made a second time to be observed: it makes none now.
    const queried = vi.spyOn(client.db.items.core, 'query');
    renderWithApp(<Children parentId={campaign.id} />);
    await waitFor(() => expect(shown()).toBe('Dig'));
    // Plain-Dexie mode (testkit/plainDexie.ts) reads through Dexie's query.
    if (!plainDexie) expect(queried).not.toHaveBeenCalled();

    await client.items.update(fence.id, { parent_id: campaign.id });
    await waitFor(() => expect(shown()?.split(', ').sort()).toEqual(['Dig', 'Fence']));
    await client.items.update(dig.id, { title: 'Dig deep' });
    await waitFor(() => expect(shown()?.split(', ').sort()).toEqual(['Dig deep', 'Fence']));
    await client.items.remove(fence.id);
    await waitFor(() => expect(shown()).toBe('Dig deep'));
  });
});
