// @vitest-environment jsdom
import { act, cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import { resetPointerGuard } from '../components/ui/pointerGuard';
import type { OutpostClient } from '../data/client';
import { type LiveQuery, type LocalItem, useLive } from '../data/live';
import { toastStore } from '../stores/toastStore';
import { LabelsFact, PriorityFact } from './DetailEditors';
import { ItemRow } from './ItemRow';

// Each write goes through IndexedDB and a live re-read: on a loaded machine that takes over a second.
configure({ asyncUtilTimeout: 5_000 });

let client: OutpostClient;

beforeEach(() => {
  client = makeTestClient();
});

afterEach(() => {
  cleanup();
  resetPointerGuard();
  client.close();
  toastStore.getState().clear();
});

const itemQuery: LiveQuery<number, LocalItem | null> = (reads, id) => reads.item(id);

/** The row as a list shows it: read live from the device, so a write shows on it. */
function LiveRow({ id }: { id: number }) {
  const item = useLive(itemQuery, id);
  return item ? <ItemRow item={item} /> : null;
}

/** A detail page's priority and labels facts over the live item. */
function LiveFacts({ id }: { id: number }) {
  const item = useLive(itemQuery, id);
  return item ? (
    <dl>
      <PriorityFact item={item} />
      <LabelsFact item={item} />
      <ItemRow item={item} />
    </dl>
  ) : null;
}

async function openRowMenu(title: string) {
  const trigger = await screen.findByRole('button', { name: `More actions for ${title}` });
  await act(async () => {
    fireEvent.keyDown(trigger, { key: 'Enter' });
  });
  return screen.findByRole('menu');
}

describe('priority and labels from the row menu', () => {
  it('sets p1 from the Priority sub-menu and shows the flag on the row, with an Undo', async () => {
    const todo = await client.items.create({ title: 'Buy milk', type: 'todo' });
    renderWithApp(<LiveRow id={todo.id} />);
    expect(screen.queryByText('p1')).toBeNull();
    const menu = await openRowMenu('Buy milk');
    const sub = within(menu).getByRole('menuitem', { name: 'Priority' });
    await act(async () => {
      fireEvent.keyDown(sub, { key: 'ArrowRight' });
    });
    const p1 = await screen.findByRole('menuitemradio', { name: 'p1' });
    expect(screen.getByRole('menuitemradio', { name: 'p4 (none)' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    await act(async () => {
      fireEvent.click(p1);
    });
    await waitFor(async () => expect((await client.db.items.get(todo.id))?.priority).toBe(1));
    const row = document.querySelector<HTMLElement>(`[data-item-id="${todo.id}"]`)!;
    await waitFor(() => expect(row.textContent).toContain('Priority p1'));
    await waitFor(() =>
      expect(toastStore.getState().queue.find((t) => t.description === 'Priority: p1.')?.action?.label).toBe(
        'Undo',
      ),
    );
  });

  it('adds a label from Labels… and shows its chip linking to the label page; the schema says no to a repeat', async () => {
    const todo = await client.items.create({ title: 'Post letter', type: 'todo' });
    renderWithApp(<LiveRow id={todo.id} />);
    const menu = await openRowMenu('Post letter');
    await act(async () => {
      fireEvent.click(within(menu).getByRole('menuitem', { name: 'Labels…' }));
    });
    const dialog = await screen.findByRole('dialog', { name: 'Labels' });
    const field = within(dialog).getByRole('textbox', { name: 'Add a label to Post letter' });
    fireEvent.change(field, { target: { value: ' errand ' } });
    await act(async () => {
      fireEvent.keyDown(field, { key: 'Enter' });
    });
    await waitFor(async () => expect((await client.db.items.get(todo.id))?.labels).toEqual(['errand']));
    const chip = await screen.findByRole('link', { name: 'errand' });
    expect(chip.getAttribute('href')).toBe('/labels/errand');
    // The same label in other letters is a repeat (labels ignore case): the shared schema's message.
    fireEvent.change(field, { target: { value: 'ERRAND' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'The label “ERRAND” is there twice (labels ignore case).',
    );
    fireEvent.change(field, { target: { value: 'a#b' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(within(dialog).getByRole('alert').textContent).toBe('A label cannot contain #, @ or a comma.');
    expect((await client.db.items.get(todo.id))?.labels).toEqual(['errand']);
  });
});

describe('priority and labels on the detail page', () => {
  it('sets a priority from the select and adds and removes labels, and the row shows them', async () => {
    const task = await client.items.create({ title: 'Plan trip', type: 'task' });
    renderWithApp(<LiveFacts id={task.id} />);
    const select = (await screen.findByLabelText('Priority:')) as HTMLSelectElement;
    expect(select.value).toBe('4');
    await act(async () => {
      fireEvent.change(select, { target: { value: '2' } });
    });
    await waitFor(async () => expect((await client.db.items.get(task.id))?.priority).toBe(2));
    const row = document.querySelector<HTMLElement>(`[data-item-id="${task.id}"]`)!;
    await waitFor(() => expect(row.textContent).toContain('Priority p2'));

    const field = (await screen.findByLabelText('Labels:')) as HTMLInputElement;
    for (const label of ['Travel', 'home']) {
      fireEvent.change(field, { target: { value: label } });
      await act(async () => {
        fireEvent.keyDown(field, { key: 'Enter' });
      });
    }
    await waitFor(async () =>
      expect((await client.db.items.get(task.id))?.labels).toEqual(['Travel', 'home']),
    );
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Remove label Travel' }));
    });
    await waitFor(async () => expect((await client.db.items.get(task.id))?.labels).toEqual(['home']));
    // The row shows the stored labels once the list's live read answers again (after the write).
    await waitFor(() => {
      expect(within(row).getByRole('link', { name: 'home' })).toBeTruthy();
      expect(within(row).queryByRole('link', { name: 'Travel' })).toBeNull();
    });
  });

  it('stops at ten labels with the schema’s message', async () => {
    const labels = Array.from({ length: 10 }, (_, i) => `l${i}`);
    const task = await client.items.create({ title: 'Full', type: 'task', labels });
    renderWithApp(<LiveFacts id={task.id} />);
    const field = (await screen.findByLabelText('Labels:')) as HTMLInputElement;
    fireEvent.change(field, { target: { value: 'eleven' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(screen.getByRole('alert').textContent).toBe('At most 10 labels.');
  });
});
