// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import { toastStore } from '../stores/toastStore';
import { ItemList } from './ItemList';
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
    const press = async (code: string, key: string) => {
      fireEvent.keyDown(handle, { code, key });
      // The keyboard sensor listens for the next keys from a timer after a lift: each key waits a tick.
      await act(() => new Promise((r) => setTimeout(r, 20)));
    };
    handle.focus();
    await press('Space', ' ');
    await press('ArrowDown', 'ArrowDown');
    await press('ArrowRight', 'ArrowRight');
    const lit = document.querySelector('li[data-drop-into="true"]');
    expect(lit?.textContent).toContain('Kitchen');
    expect(document.querySelector('li[data-dragging="true"]')?.textContent).toContain('Move into');
    await press('Space', ' ');

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
    const press = async (code: string, key: string) => {
      fireEvent.keyDown(handle, { code, key });
      await act(() => new Promise((r) => setTimeout(r, 20)));
    };
    handle.focus();
    await press('Space', ' ');
    await press('ArrowDown', 'ArrowDown');
    await press('ArrowRight', 'ArrowRight');
    expect(document.querySelector('li[data-drop-into]')).toBeNull();
    await press('Space', ' ');
    await waitFor(() => expect(moves).toEqual([1]));
    expect((await client.db.items.get(a.id))?.parent_id).toBe(campaign.id);
    client.close();
  });
});
