// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { eachTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { OutpostClient } from '../data/client';
import EditItemDialog from './EditItemDialog';
import { fromLocalDateTime, moveTargets, toLocalDateTime } from './editing';
import MoveToDialog from './MoveToDialog';

let client: OutpostClient;

eachTestClient((made) => {
  client = made;
});

describe('EditItemDialog', () => {
  it('opens with the item as it is and saves every changed field, a todo’s due date and reminder too', async () => {
    const todo = await client.items.create({ title: 'Buy brushes', type: 'todo' });
    const onOpenChange = vi.fn();
    renderWithApp(<EditItemDialog itemId={todo.id} open onOpenChange={onOpenChange} />);
    const dialog = await screen.findByRole('dialog', { name: 'Edit details' });
    await within(dialog).findByLabelText('Title');
    const title = within(dialog).getByLabelText('Title') as HTMLInputElement;
    expect(title.value).toBe('Buy brushes');
    fireEvent.change(title, { target: { value: 'Buy good brushes' } });
    fireEvent.change(within(dialog).getByLabelText(/Description/), { target: { value: 'Two of them' } });
    fireEvent.change(within(dialog).getByLabelText('Due date'), { target: { value: '2031-06-01' } });
    fireEvent.change(within(dialog).getByLabelText(/Reminder/), { target: { value: '2031-05-31T17:30' } });
    // A guest may assign nobody: the select holds 'Unassigned' alone (P22).
    const assignee = within(dialog).getByLabelText('Assignee') as HTMLSelectElement;
    expect([...assignee.options].map((o) => o.textContent)).toEqual(['Unassigned']);
    fireEvent.change(within(dialog).getByLabelText(/Status/), { target: { value: 'in_progress' } });
    // A campaign's end date is not offered for a todo.
    expect(within(dialog).queryByLabelText('End date')).toBeNull();
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    });
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(await client.db.items.get(todo.id)).toMatchObject({
      title: 'Buy good brushes',
      description: 'Two of them',
      due_date: '2031-06-01',
      remind_at: fromLocalDateTime('2031-05-31T17:30'),
      assigned_to: null,
      status: 'in_progress',
    });
  });

  it('clears a due date and a reminder, and offers a campaign its end date', async () => {
    const campaign = await client.items.create({
      title: 'Garden',
      type: 'campaign',
      due_date: '2031-01-01',
      end_date: '2031-02-01',
      remind_at: '2031-01-01T08:00:00.000Z',
    });
    renderWithApp(<EditItemDialog itemId={campaign.id} open onOpenChange={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Edit details' });
    await within(dialog).findByLabelText('Title');
    expect((within(dialog).getByLabelText(/Reminder/) as HTMLInputElement).value).toBe(
      toLocalDateTime('2031-01-01T08:00:00.000Z'),
    );
    fireEvent.change(within(dialog).getByLabelText('Due date'), { target: { value: '' } });
    fireEvent.change(within(dialog).getByLabelText(/Reminder/), { target: { value: '' } });
    fireEvent.change(within(dialog).getByLabelText('End date'), { target: { value: '2031-03-01' } });
    await act(async () => {
      fireEvent.keyDown(within(dialog).getByLabelText('Title'), { key: 'Enter', ctrlKey: true });
    });
    await waitFor(async () =>
      expect(await client.db.items.get(campaign.id)).toMatchObject({
        due_date: null,
        remind_at: null,
        end_date: '2031-03-01',
      }),
    );
  });

  it('does not save a blank title', async () => {
    const task = await client.items.create({ title: 'Taxes', type: 'task' });
    const onOpenChange = vi.fn();
    renderWithApp(<EditItemDialog itemId={task.id} open onOpenChange={onOpenChange} />);
    const dialog = await screen.findByRole('dialog', { name: 'Edit details' });
    await within(dialog).findByLabelText('Title');
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: '   ' } });
    expect(within(dialog).getByText('Title is required.')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Save changes' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect((await client.db.items.get(task.id))?.title).toBe('Taxes');
  });
});

describe('MoveToDialog', () => {
  it('offers only the places the rules allow, searchable, and moves with the keyboard', async () => {
    const garden = await client.items.create({ title: 'Garden', type: 'campaign' });
    const house = await client.items.create({ title: 'House', type: 'campaign' });
    const beds = await client.items.create({ title: 'Raised beds', type: 'task', parent_id: garden.id });
    const roof = await client.items.create({ title: 'Roof', type: 'task', parent_id: house.id });
    const todo = await client.items.create({ title: 'Order soil', type: 'todo', parent_id: beds.id });
    const onOpenChange = vi.fn();
    renderWithApp(<MoveToDialog item={todo} open onOpenChange={onOpenChange} />);
    const dialog = await screen.findByRole('dialog', { name: 'Move to…' });
    await waitFor(() => expect(within(dialog).getAllByRole('option')).toHaveLength(5));
    const names = within(dialog)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(names[0]).toMatch(/No parent/);
    expect(names.join('|')).toMatch(/Raised beds.*Current/);
    const search = within(dialog).getByRole('combobox');
    expect(document.activeElement).toBe(search);
    fireEvent.change(search, { target: { value: 'ro' } });
    await waitFor(() => expect(within(dialog).getAllByRole('option')).toHaveLength(1));
    expect(within(dialog).getByRole('option').textContent).toMatch(/Roof/);
    expect(within(dialog).getByRole('option').getAttribute('aria-selected')).toBe('true');
    await act(async () => {
      fireEvent.keyDown(search, { key: 'Enter' });
    });
    await waitFor(async () => expect((await client.db.items.get(todo.id))?.parent_id).toBe(roof.id));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('moves a task under campaigns only, never a todo under itself or a task', () => {
    const candidates = [
      { id: 1, type: 'campaign' as const, title: 'Garden', parent_id: null },
      { id: 2, type: 'task' as const, title: 'Beds', parent_id: 1 },
      { id: 3, type: 'task' as const, title: 'Roof', parent_id: null },
    ];
    expect(moveTargets({ id: 2, type: 'task', parent_id: 1 }, candidates).map((t) => t.id)).toEqual([1]);
    expect(moveTargets({ id: 1, type: 'campaign', parent_id: null }, candidates)).toEqual([]);
    expect(
      moveTargets({ id: 9, type: 'todo', parent_id: 2 }, candidates).map((t) => [t.id, t.current]),
    ).toEqual([
      [1, false],
      [2, true],
      [3, false],
    ]);
  });

  it('tells a campaign it cannot be moved', async () => {
    const campaign = await client.items.create({ title: 'Garden', type: 'campaign' });
    renderWithApp(<MoveToDialog item={campaign} open onOpenChange={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Move to…' });
    expect(within(dialog).getByText(/always at the top level/)).toBeTruthy();
  });
});
