// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useMemo } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pressKey } from '../../../testkit/client/keyboardDrag';
import { makeTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import { inManualOrder } from '../../shared/manualOrder';
import type { OutpostClient } from '../data/client';
import type { LocalItem } from '../data/store/types';
import { TABLES } from '../data/sync/context';
import { swapTempId } from '../data/sync/tempIds';
import { toastStore } from '../stores/toastStore';
import { ItemList } from './ItemList';
import { useChildren } from './queries';
import { orderAnnouncements } from './SortableItems';

const rows = [
  { id: 1, title: 'Call the plumber' },
  { id: 2, title: 'Water the ferns' },
  { id: 3, title: 'Pay rent' },
];
// dnd-kit hands the announcements its active and over nodes; only their ids are read.
const node = (id: number) => ({ id }) as never;

describe('drag announcements', () => {
  it('say the place in plain words with the title', () => {
    const said = orderAnnouncements(rows);
    expect(said.onDragStart({ active: node(2) })).toBe('Picked up “Water the ferns”, at 2 of 3.');
    expect(said.onDragOver({ active: node(2), over: node(1) })).toBe(
      '“Water the ferns” is over place 1 of 3.',
    );
    expect(said.onDragEnd({ active: node(2), over: node(1) })).toBe('“Water the ferns” dropped at 1 of 3.');
    expect(said.onDragCancel({ active: node(2), over: null })).toBe(
      'Move cancelled. “Water the ferns” is back at 2 of 3.',
    );
  });

  it('O6: add what a drop on Today would change besides the place (its new priority)', () => {
    const said = orderAnnouncements(rows, (id, to) => (id === 3 && to === 0 ? 'p1' : null));
    expect(said.onDragOver({ active: node(3), over: node(1) })).toBe(
      '“Pay rent” is over place 1 of 3, and would be p1.',
    );
    expect(said.onDragEnd({ active: node(3), over: node(1) })).toBe('“Pay rent” dropped at 1 of 3, now p1.');
    expect(said.onDragEnd({ active: node(3), over: node(2) })).toBe('“Pay rent” dropped at 2 of 3.');
  });
});

describe('dropping a row into another', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    toastStore.getState().clear();
  });

  it('O7: says “Move into” over a task a todo may go into, and the drop moves it there, undoable', () => {
    const said = orderAnnouncements([...rows, { id: 4, title: 'Kitchen' }]);
    expect(said.onDragOver({ active: node(2), over: { id: 'into:4' } as never })).toBe(
      'Move into “Kitchen”: drop to put “Water the ferns” there.',
    );
    expect(said.onDragEnd({ active: node(2), over: { id: 'into:4' } as never })).toBe(
      '“Water the ferns” moved into “Kitchen”.',
    );
  });

  it('O7: by keyboard (Space, ↓ onto the task, →, Space) a todo goes into the task: one write, lit while over, undone by its toast', async () => {
    const client = makeTestClient();
    const campaign = await client.items.create({ title: 'House', type: 'campaign' });
    const todo = await client.items.create({ title: 'Paint', type: 'todo', parent_id: campaign.id });
    const task = await client.items.create({ title: 'Kitchen', type: 'task', parent_id: campaign.id });
    const other = await client.items.create({ title: 'Sweep', type: 'todo', parent_id: campaign.id });
    // jsdom lays nothing out, and the keyboard drag picks its place by position: rows 50 px apart.
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      const index = Number(this.closest<HTMLElement>('li[data-index]')?.dataset.index ?? 0);
      return new DOMRect(0, index * 50, 400, 50);
    });
    const moves: number[] = [];
    renderWithApp(
      <ItemList
        items={[todo, task, other]}
        label="Contents"
        showParent={false}
        onMove={(_, to) => moves.push(to)}
      />,
    );
    const handle = await waitFor(() => screen.getByRole('button', { name: 'Move “Paint”' }));
    const _press = async (code: string, key: string) => {
      fireEvent.keyDown(handle, { code, key });
      // The keyboard sensor listens for the next keys from a timer after a lift: each key waits a tick.
      await act(() => new Promise((r) => setTimeout(r, 20)));
    };
    handle.focus();
    await pressKey('Space', ' ');
    await pressKey('ArrowDown', 'ArrowDown');
    await pressKey('ArrowRight', 'ArrowRight');
    const lit = document.querySelector('li[data-drop-into="true"]');
    expect(lit?.textContent).toContain('Kitchen');
    expect(document.querySelector('li[data-dragging="true"]')?.textContent).toContain('Move into');
    await pressKey('Space', ' ');

    await waitFor(async () => expect((await client.db.items.get(todo.id))?.parent_id).toBe(task.id));
    expect(moves).toEqual([]);
    const toast = await waitFor(() => {
      const found = toastStore.getState().queue.find((t) => t.title === 'Moved to “Kitchen”');
      expect(found?.action?.label).toBe('Undo');
      return found;
    });
    await act(async () => toast?.action?.onClick());
    await waitFor(async () => expect((await client.db.items.get(todo.id))?.parent_id).toBe(campaign.id));
    client.close();
  });

  it('O7: a todo over another todo only reorders: → does nothing there', async () => {
    const client = makeTestClient();
    const campaign = await client.items.create({ title: 'House', type: 'campaign' });
    const a = await client.items.create({ title: 'Paint', type: 'todo', parent_id: campaign.id });
    const b = await client.items.create({ title: 'Sweep', type: 'todo', parent_id: campaign.id });
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      const index = Number(this.closest<HTMLElement>('li[data-index]')?.dataset.index ?? 0);
      return new DOMRect(0, index * 50, 400, 50);
    });
    const moves: number[] = [];
    renderWithApp(
      <ItemList items={[a, b]} label="Contents" showParent={false} onMove={(_, to) => moves.push(to)} />,
    );
    const handle = await waitFor(() => screen.getByRole('button', { name: 'Move “Paint”' }));
    const _press = async (code: string, key: string) => {
      fireEvent.keyDown(handle, { code, key });
      await act(() => new Promise((r) => setTimeout(r, 20)));
    };
    handle.focus();
    await pressKey('Space', ' ');
    await pressKey('ArrowDown', 'ArrowDown');
    await pressKey('ArrowRight', 'ArrowRight');
    expect(document.querySelector('li[data-drop-into]')).toBeNull();
    await pressKey('Space', ' ');
    await waitFor(() => expect(moves).toEqual([1]));
    expect((await client.db.items.get(a.id))?.parent_id).toBe(campaign.id);
    client.close();
  });
});

/** The server's answer to a create, as push and pull apply it: the row's id becomes another. */
async function swapId(client: OutpostClient, from: number, to: number): Promise<void> {
  await client.db.transaction('rw', [...TABLES], () => swapTempId(client.db, from, to));
}

/** A campaign's contents in manual order, live from the device, as its page lists them. */
function Contents({ parentId, onMove }: { parentId: number; onMove: (item: LocalItem, to: number) => void }) {
  const children = useChildren(parentId);
  const items = useMemo(() => (children ? inManualOrder(children) : undefined), [children]);
  return items ? <ItemList items={items} label="Contents" showParent={false} onMove={onMove} /> : null;
}

describe('a drag while the row’s id changes', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('O2: a row lifted by keyboard whose create the server answers (new id) still drops where the arrows took it, focus kept', async () => {
    const client = makeTestClient();
    const campaign = await client.items.create({ title: 'House', type: 'campaign' });
    const paint = await client.items.create({ title: 'Paint', type: 'todo', parent_id: campaign.id });
    await client.items.create({ title: 'Sweep', type: 'todo', parent_id: campaign.id });
    await client.items.create({ title: 'Mop', type: 'todo', parent_id: campaign.id });
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      const index = Number(this.closest<HTMLElement>('li[data-index]')?.dataset.index ?? 0);
      return new DOMRect(0, index * 50, 400, 50);
    });
    const moves: { id: number; to: number }[] = [];
    renderWithApp(<Contents parentId={campaign.id} onMove={(item, to) => moves.push({ id: item.id, to })} />);
    const handleOf = () => screen.getByRole('button', { name: 'Move “Paint”' });
    const handle = await waitFor(handleOf);
    handle.focus();
    await pressKey('Space', ' ');
    await pressKey('ArrowDown', 'ArrowDown');
    await pressKey('ArrowDown', 'ArrowDown');
    expect(document.querySelector('li[data-dragging="true"]')?.textContent).toContain('Paint');

    const serverId = 9001;
    await act(() => swapId(client, paint.id, serverId));
    await waitFor(() => expect(document.querySelector(`[data-item-id="${serverId}"]`)).toBeTruthy());
    // Still lifted, and the handle that lifted it still has focus.
    expect(document.querySelector('li[data-dragging="true"]')?.textContent).toContain('Paint');
    expect(document.activeElement).toBe(handleOf());

    await pressKey('Space', ' ');
    await waitFor(() => expect(moves).toEqual([{ id: serverId, to: 2 }]));
    expect(document.activeElement).toBe(handleOf());
    client.close();
  });
});
