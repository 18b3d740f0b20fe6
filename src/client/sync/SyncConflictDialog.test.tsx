// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConflictView } from '../data/reads/conflictView';
import { allChosen, SyncConflictDialog } from './SyncConflictDialog';

afterEach(cleanup);

const version = (title: string) => ({
  title,
  description: 'About it',
  status: 'in_progress' as const,
  modifiedAt: new Date(Date.now() - 3_600_000).toISOString(),
  deleted: false,
});

const conflicts: ConflictView[] = [
  { id: 1, type: 'update', local: version('Plan launch (mine)'), remote: version('Plan launch (theirs)') },
  { id: 2, type: 'delete', local: null, remote: version('Old idea') },
];

const resolveButton = () => screen.getByRole('button', { name: 'Resolve Conflicts' }) as HTMLButtonElement;

describe('SyncConflictDialog', () => {
  it('shows the spec title and text', () => {
    render(<SyncConflictDialog open conflicts={conflicts} onCancel={vi.fn()} onResolve={vi.fn()} />);
    expect(screen.getByText('Sync Conflicts Detected')).toBeTruthy();
    expect(
      screen.getByText(
        'Some items were modified both locally and on the server. Please choose which version to keep.',
      ),
    ).toBeTruthy();
  });

  it('keeps Resolve Conflicts disabled until every conflict has a choice', () => {
    const onResolve = vi.fn();
    render(<SyncConflictDialog open conflicts={conflicts} onCancel={vi.fn()} onResolve={onResolve} />);
    expect(resolveButton().disabled).toBe(true);
    fireEvent.click(screen.getAllByRole('radio', { name: /Keep Local Version/ })[0]!);
    expect(resolveButton().disabled).toBe(true);
    const serverChoices = screen.getAllByRole('radio', { name: /Keep Server Version/ });
    fireEvent.click(serverChoices[1]!);
    expect(resolveButton().disabled).toBe(false);
    fireEvent.click(resolveButton());
    expect(onResolve).toHaveBeenCalledWith({ 1: 'local', 2: 'remote' });
  });

  it('offers Keep Local Version only when a local version exists', () => {
    render(<SyncConflictDialog open conflicts={conflicts} onCancel={vi.fn()} onResolve={vi.fn()} />);
    expect(screen.getAllByRole('radio', { name: /Keep Local Version/ })).toHaveLength(1);
    expect(screen.getAllByRole('radio', { name: /Keep Server Version/ })).toHaveLength(2);
  });

  it('calls onCancel from Cancel', () => {
    const onCancel = vi.fn();
    render(<SyncConflictDialog open conflicts={conflicts} onCancel={onCancel} onResolve={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalled();
  });

  it('needs a choice for every conflict', () => {
    expect(allChosen(conflicts, {})).toBe(false);
    expect(allChosen(conflicts, { 1: 'local' })).toBe(false);
    expect(allChosen(conflicts, { 1: 'local', 2: 'remote' })).toBe(true);
    expect(allChosen([], {})).toBe(false);
  });
});
