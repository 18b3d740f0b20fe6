// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from '../components/ui/AlertDialog';
import type { LocalItem } from '../data/store/types';
import { oldestFirst } from '../items/queries';
import { HiddenItemsEmpty } from './HiddenHint';

afterEach(cleanup);

describe('HiddenItemsEmpty', () => {
  it('keeps the spec text alone when the other tabs are empty too', () => {
    render(
      <HiddenItemsEmpty
        icon={null}
        title="No completed items yet!"
        kind="completed"
        counts={{ task: 0, todo: 0 }}
        onShow={() => {}}
      />,
    );
    expect(screen.getByText('No completed items yet!')).toBeTruthy();
    expect(screen.queryByText(/inside campaigns or tasks/)).toBeNull();
  });

  it('says how many items are inside campaigns or tasks and why All is empty, and opens their tab', () => {
    const onShow = vi.fn();
    render(
      <HiddenItemsEmpty
        icon={null}
        title="No completed items yet!"
        kind="completed"
        counts={{ task: 1, todo: 2 }}
        onShow={onShow}
      />,
    );
    expect(
      screen.getByText('3 completed items are inside campaigns or tasks; All lists top-level items only.'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show todos (2)' }));
    expect(onShow).toHaveBeenCalledWith('todo');
    fireEvent.click(screen.getByRole('button', { name: 'Show tasks (1)' }));
    expect(onShow).toHaveBeenCalledWith('task');
  });

  it('never says there are no completed items when 401 completed todos are hidden', () => {
    render(
      <HiddenItemsEmpty
        icon={null}
        title="No completed items yet!"
        kind="completed"
        counts={{ task: 0, todo: 401 }}
        onShow={() => {}}
      />,
    );
    expect(screen.queryByText(/No completed items/)).toBeNull();
    expect(
      screen.getByText('401 completed todos are inside campaigns or tasks; All lists top-level items only.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Show todos (401)' })).toBeTruthy();
  });

  it('words one item in the singular', () => {
    render(
      <HiddenItemsEmpty
        icon={null}
        title="Nothing active!"
        kind="active"
        counts={{ task: 0, todo: 1 }}
        onShow={() => {}}
      />,
    );
    expect(screen.getByText(/^1 active todo is inside/)).toBeTruthy();
    expect(screen.queryByText('Nothing active!')).toBeNull();
    expect(screen.queryByRole('button', { name: /Show tasks/ })).toBeNull();
  });
});

describe('ConfirmDialog', () => {
  it('is an alertdialog with Cancel and the action, Cancel does not confirm', () => {
    const onConfirm = vi.fn();
    const onOpenChange = vi.fn();
    render(
      <ConfirmDialog
        open
        onOpenChange={onOpenChange}
        title="Complete 3 open items too?"
        description="Everything inside is completed."
        confirmLabel="Complete"
        onConfirm={onConfirm}
      />,
    );
    expect(screen.getByRole('alertdialog', { name: 'Complete 3 open items too?' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onConfirm).not.toHaveBeenCalled();
    expect(onOpenChange).toHaveBeenCalledWith(false);
    fireEvent.click(screen.getByRole('button', { name: 'Complete' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});

describe('oldestFirst', () => {
  it('lists children in the order they were made', () => {
    const item = (id: number, created_at: string) => ({ id, created_at }) as LocalItem;
    const sorted = oldestFirst([item(3, '2026-01-03'), item(1, '2026-01-01'), item(-2, '2026-01-01')]);
    expect(sorted.map((i) => i.id)).toEqual([1, -2, 3]);
  });
});
