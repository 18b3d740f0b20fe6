// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import { resetPointerGuard } from '../components/ui/pointerGuard';
import type { OutpostClient } from '../data/client';
import { toastStore } from '../stores/toastStore';
import { InlineTitle, useSavingTitle } from './InlineTitle';
import { ItemRow } from './ItemRow';

afterEach(() => {
  cleanup();
  resetPointerGuard();
});

function startEditing() {
  fireEvent.click(screen.getByRole('button', { name: /Edit title/ }));
  return screen.getByRole('textbox', { name: 'Title' }) as HTMLInputElement;
}

describe('InlineTitle', () => {
  it('saves the trimmed text on Enter', () => {
    const onSave = vi.fn();
    render(<InlineTitle value="Buy tape" editable onSave={onSave} />);
    const input = startEditing();
    fireEvent.change(input, { target: { value: '  Buy duct tape ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(onSave).toHaveBeenCalledWith('Buy duct tape');
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('cancels on Escape without saving', () => {
    const onSave = vi.fn();
    render(<InlineTitle value="Buy tape" editable onSave={onSave} />);
    const input = startEditing();
    fireEvent.change(input, { target: { value: 'Something else' } });
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(onSave).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: /Edit title/ }).textContent).toBe('Buy tape');
  });

  it('saves on blur, but not an empty or unchanged title', () => {
    const onSave = vi.fn();
    render(<InlineTitle value="Buy tape" editable onSave={onSave} />);
    let input = startEditing();
    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.blur(input);
    input = startEditing();
    fireEvent.change(input, { target: { value: ' \u200b\ufeff ' } });
    fireEvent.blur(input);
    input = startEditing();
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onSave).not.toHaveBeenCalled();
    input = startEditing();
    fireEvent.change(input, { target: { value: 'Buy rope' } });
    fireEvent.blur(input);
    expect(onSave).toHaveBeenCalledWith('Buy rope');
  });

  it('keeps Shift+Enter from saving', () => {
    const onSave = vi.fn();
    render(<InlineTitle value="Buy tape" editable onSave={onSave} />);
    const input = startEditing();
    fireEvent.change(input, { target: { value: 'Buy rope' } });
    fireEvent.keyDown(input, { key: 'Enter', shiftKey: true });
    expect(onSave).not.toHaveBeenCalled();
  });

  it('is plain text when not editable', () => {
    render(<InlineTitle value="Done thing" editable={false} onSave={vi.fn()} />);
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByText('Done thing')).toBeTruthy();
  });
});

/** A title whose rename is saved by `save` (useSavingTitle in front of InlineTitle, as a row uses it). */
function Saving({ stored, save }: { stored: string; save: (title: string) => Promise<void> }) {
  const [title, onSave] = useSavingTitle(stored, save);
  return <InlineTitle value={title} editable onSave={onSave} />;
}

describe('useSavingTitle', () => {
  it('W7: shows the new title in the frame of the Enter, and the stored one once the save settles', async () => {
    let settle: (() => void) | null = null;
    const save = vi.fn(() => new Promise<void>((resolve) => (settle = resolve)));
    const { rerender } = render(<Saving stored="Buy tape" save={save} />);
    const input = startEditing();
    fireEvent.change(input, { target: { value: 'Buy rope' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    // Before the save has stored anything.
    expect(screen.getByRole('button', { name: /Edit title/ }).textContent).toBe('Buy rope');
    expect(save).toHaveBeenCalledWith('Buy rope');
    // A refused save: the stored title (still the old one) comes back.
    await act(async () => settle?.());
    expect(screen.getByRole('button', { name: /Edit title/ }).textContent).toBe('Buy tape');
    rerender(<Saving stored="Buy rope" save={save} />);
    expect(screen.getByRole('button', { name: /Edit title/ }).textContent).toBe('Buy rope');
  });
});

describe('ItemRow inline edit', () => {
  let client: OutpostClient;

  afterEach(() => {
    client.close();
    toastStore.getState().clear();
  });

  it('renames a todo through the repository and says so', async () => {
    client = makeTestClient();
    const todo = await client.items.create({ title: 'Buy tape', type: 'todo' });
    renderWithApp(<ItemRow item={todo} />);
    const input = startEditing();
    fireEvent.change(input, { target: { value: 'Buy rope' } });
    await act(async () => {
      fireEvent.keyDown(input, { key: 'Enter' });
    });
    await waitFor(async () => expect((await client.db.items.get(todo.id))?.title).toBe('Buy rope'));
    // The toast waits for its Undo (the change's undo record), a moment after the write.
    // Found by title: a toast of the test before may still arrive (it waits for its Undo too).
    await waitFor(() =>
      expect(toastStore.getState().queue.find((t) => t.title === 'Todo updated')?.action?.label).toBe('Undo'),
    );
  });

  it('does not let a completed todo be edited', async () => {
    client = makeTestClient();
    const created = await client.items.create({ title: 'Paint fence', type: 'todo' });
    const done = await client.items.setStatus(created.id, 'completed');
    renderWithApp(<ItemRow item={done} />);
    expect(screen.queryByRole('button', { name: /Edit title/ })).toBeNull();
    expect(screen.getByText('Paint fence')).toBeTruthy();
  });

  it('toggles a todo between pending and completed from its icon', async () => {
    client = makeTestClient();
    const todo = await client.items.create({ title: 'Call Sam', type: 'todo' });
    renderWithApp(<ItemRow item={todo} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Mark as done: Call Sam' }));
    });
    await waitFor(async () => expect((await client.db.items.get(todo.id))?.status).toBe('completed'));
  });

  it('deletes a todo at once and says so', async () => {
    client = makeTestClient();
    const todo = await client.items.create({ title: 'Old note', type: 'todo' });
    renderWithApp(<ItemRow item={todo} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Delete Old note' }));
    });
    await waitFor(async () => expect(await client.db.items.get(todo.id)).toBeUndefined());
    await waitFor(() =>
      expect(toastStore.getState().queue.find((t) => t.title === 'Todo deleted')).toMatchObject({
        title: 'Todo deleted',
        description: 'The todo has been deleted successfully.',
        action: { label: 'Undo' },
      }),
    );
  });

  it('deletes one todo on a double click, not the next one that slides under the pointer', async () => {
    client = makeTestClient();
    const first = await client.items.create({ title: 'First note', type: 'todo' });
    const second = await client.items.create({ title: 'Second note', type: 'todo' });
    renderWithApp(
      <>
        <ItemRow item={first} />
        <ItemRow item={second} />
      </>,
    );
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Delete First note' }));
      // The second click of the double click lands on the row that moved up.
      fireEvent.click(screen.getByRole('button', { name: 'Delete Second note' }));
    });
    await waitFor(async () => expect(await client.db.items.get(first.id)).toBeUndefined());
    expect(await client.db.items.get(second.id)).toBeDefined();
  });

  it('asks before deleting a task with everything in it', async () => {
    client = makeTestClient();
    const task = await client.items.create({ title: 'Big task', type: 'task' });
    renderWithApp(<ItemRow item={task} />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete Big task' }));
    // The dialog's code loads on this first press.
    expect(await screen.findByRole('dialog', { name: 'Delete this task?' })).toBeTruthy();
    expect(await client.db.items.get(task.id)).toBeDefined();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    });
    await waitFor(async () => expect(await client.db.items.get(task.id)).toBeUndefined());
  });
});
