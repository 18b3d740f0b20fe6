// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { OutpostClient } from '../data/client';
import { toastStore } from '../stores/toastStore';
import { QuickAddCard } from './QuickAddCard';

let client: OutpostClient;

beforeEach(() => {
  client = makeTestClient();
  toastStore.getState().clear();
});

afterEach(() => {
  cleanup();
  client.close();
});

function titleInput() {
  return screen.getByRole('textbox', { name: /title/i });
}

function addButton() {
  return screen.getByRole('button', { name: /^Add / });
}

describe('QuickAddCard', () => {
  it('expands on focus and collapses on Escape only while empty', () => {
    renderWithApp(<QuickAddCard types={['todo', 'task', 'campaign']} />);
    expect(screen.queryByRole('radio', { name: 'Task' })).toBeNull();

    fireEvent.focus(titleInput());
    expect(screen.getByRole('radio', { name: 'Task' })).toBeTruthy();

    fireEvent.change(titleInput(), { target: { value: 'Half typed' } });
    fireEvent.keyDown(titleInput(), { key: 'Escape' });
    expect(screen.getByRole('radio', { name: 'Task' })).toBeTruthy();

    fireEvent.change(titleInput(), { target: { value: '' } });
    fireEvent.keyDown(titleInput(), { key: 'Escape' });
    expect(screen.queryByRole('radio', { name: 'Task' })).toBeNull();
  });

  it('collapses on blur only while empty', () => {
    renderWithApp(<QuickAddCard types={['todo']} />);
    fireEvent.focus(titleInput());
    expect(addButton()).toBeTruthy();
    fireEvent.change(titleInput(), { target: { value: 'Keep me' } });
    fireEvent.blur(titleInput(), { relatedTarget: document.body });
    expect(addButton()).toBeTruthy();
    fireEvent.change(titleInput(), { target: { value: '' } });
    fireEvent.blur(titleInput(), { relatedTarget: document.body });
    expect(screen.queryByRole('button', { name: /^Add / })).toBeNull();
  });

  it('disables submit while the trimmed title is empty', () => {
    renderWithApp(<QuickAddCard types={['todo']} />);
    fireEvent.focus(titleInput());
    expect((addButton() as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(titleInput(), { target: { value: '   ' } });
    expect((addButton() as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(titleInput(), { target: { value: ' Buy tape ' } });
    expect((addButton() as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows the counter above 200 characters and the error over 255', () => {
    renderWithApp(<QuickAddCard types={['todo']} />);
    fireEvent.focus(titleInput());
    fireEvent.change(titleInput(), { target: { value: 'a'.repeat(200) } });
    expect(screen.queryByText('200/255')).toBeNull();
    fireEvent.change(titleInput(), { target: { value: 'a'.repeat(201) } });
    expect(screen.getByText('201/255')).toBeTruthy();
    expect(screen.queryByText(/Title too long/)).toBeNull();
    fireEvent.change(titleInput(), { target: { value: 'a'.repeat(256) } });
    const counter = screen.getByText('256/255');
    expect(counter.className).toMatch(/red/);
    expect(screen.getByText('Title too long: Title must be 255 characters or less.')).toBeTruthy();
    expect((addButton() as HTMLButtonElement).disabled).toBe(true);
  });

  it('creates a todo on Enter, toasts, and resets', async () => {
    renderWithApp(<QuickAddCard types={['todo', 'task', 'campaign']} />);
    fireEvent.focus(titleInput());
    fireEvent.change(titleInput(), { target: { value: '  Buy tape  ' } });
    await act(async () => {
      fireEvent.keyDown(titleInput(), { key: 'Enter' });
    });
    await waitFor(() => expect((titleInput() as HTMLInputElement).value).toBe(''));
    const items = await client.db.items.toArray();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ title: 'Buy tape', type: 'todo', status: 'pending', description: null });
    expect(toastStore.getState().queue[0]).toMatchObject({
      title: 'Item created',
      description: 'Your todo has been created successfully.',
    });
  });

  it('adds a task on Enter in its title, as a todo, and keeps Shift+Enter for a new line in the description (issue 50)', async () => {
    renderWithApp(<QuickAddCard types={['task', 'todo']} parentId={null} />);
    fireEvent.focus(titleInput());
    fireEvent.change(titleInput(), { target: { value: 'Plan launch' } });
    const description = screen.getByRole('textbox', { name: 'Description' });
    fireEvent.change(description, { target: { value: 'Dates' } });
    await act(async () => {
      fireEvent.keyDown(description, { key: 'Enter', shiftKey: true });
    });
    expect(await client.db.items.count()).toBe(0);
    await act(async () => {
      fireEvent.keyDown(titleInput(), { key: 'Enter' });
    });
    await waitFor(async () => expect(await client.db.items.count()).toBe(1));
    const [item] = await client.db.items.toArray();
    expect(item).toMatchObject({ title: 'Plan launch', type: 'task', description: 'Dates' });
    expect(screen.queryByText(/Ctrl\+Enter/)).toBeNull();
  });

  it('submits a campaign or task title with Ctrl+Enter or Cmd+Enter, once', async () => {
    renderWithApp(<QuickAddCard types={['todo', 'task', 'campaign']} />);
    fireEvent.focus(titleInput());
    fireEvent.click(screen.getByRole('radio', { name: 'Campaign' }));
    fireEvent.change(titleInput(), { target: { value: 'Spring launch' } });
    await act(async () => {
      fireEvent.keyDown(titleInput(), { key: 'Enter', ctrlKey: true });
    });
    await waitFor(async () => expect(await client.db.items.count()).toBe(1));
    // The card takes the next item once the first's save has settled and emptied it, as a person sees.
    await waitFor(() => expect((titleInput() as HTMLInputElement).value).toBe(''));
    fireEvent.click(screen.getByRole('radio', { name: 'Task' }));
    fireEvent.change(titleInput(), { target: { value: 'Book venue' } });
    await act(async () => {
      fireEvent.keyDown(screen.getByLabelText('Due date'), { key: 'Enter', metaKey: true });
    });
    await waitFor(async () => expect(await client.db.items.count()).toBe(2));
    const titles = (await client.db.items.toArray()).map((i) => `${i.type}:${i.title}`).sort();
    expect(titles).toEqual(['campaign:Spring launch', 'task:Book venue']);
  });

  it('keeps focus on its title field when Escape or Cancel collapses it', () => {
    renderWithApp(<QuickAddCard types={['todo', 'task']} />);
    act(() => titleInput().focus());
    expect(screen.getByRole('radio', { name: 'Task' })).toBeTruthy();
    fireEvent.keyDown(titleInput(), { key: 'Escape' });
    expect(screen.queryByRole('radio', { name: 'Task' })).toBeNull();
    expect(document.activeElement).toBe(titleInput());
    // Typing opens it again.
    fireEvent.change(titleInput(), { target: { value: 'x' } });
    expect(screen.getByRole('radio', { name: 'Task' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('radio', { name: 'Task' })).toBeNull();
    expect(document.activeElement).toBe(titleInput());
  });

  it('offers description and due date for a campaign, assignee for a task and todo', () => {
    renderWithApp(<QuickAddCard types={['todo', 'task', 'campaign']} />);
    fireEvent.focus(titleInput());
    // Todo: assignee only.
    expect(screen.queryByRole('textbox', { name: 'Description' })).toBeNull();
    expect(screen.queryByLabelText('Due date')).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Assignee' })).toBeTruthy();
    // Campaign: description and due date, no assignee.
    fireEvent.click(screen.getByRole('radio', { name: 'Campaign' }));
    expect(screen.getByRole('textbox', { name: 'Description' })).toBeTruthy();
    expect(screen.getByLabelText('Due date')).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: 'Assignee' })).toBeNull();
    // Task: all three.
    fireEvent.click(screen.getByRole('radio', { name: 'Task' }));
    expect(screen.getByRole('textbox', { name: 'Description' })).toBeTruthy();
    expect(screen.getByLabelText('Due date')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Assignee' })).toBeTruthy();
    const names = [...screen.getByRole('combobox', { name: 'Assignee' }).querySelectorAll('option')].map(
      (o) => o.textContent,
    );
    // A guest is offered nobody: a stranger named here might not exist on the server at sign-in (P22).
    expect(names).toEqual(['Unassigned']);
  });

  it('creates under the given parent', async () => {
    const campaign = await client.items.create({ title: 'Launch', type: 'campaign' });
    renderWithApp(<QuickAddCard types={['todo']} parentId={campaign.id} />);
    fireEvent.focus(titleInput());
    fireEvent.change(titleInput(), { target: { value: 'Email list' } });
    await act(async () => {
      fireEvent.click(addButton());
    });
    await waitFor(async () => expect(await client.db.items.count()).toBe(2));
    const todo = (await client.db.items.toArray()).find((i) => i.type === 'todo');
    expect(todo?.parent_id).toBe(campaign.id);
  });
});
