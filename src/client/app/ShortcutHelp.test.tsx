// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import ShortcutHelp from './ShortcutHelp';

afterEach(cleanup);

/** The key a row of the help names for `what`, as the dialog shows it. */
function keysFor(what: string): string[] {
  const row = screen.getByText(what).closest('div');
  if (!row) throw new Error(`no row for ${what}`);
  return within(row)
    .getAllByText(/.+/, { selector: 'kbd' })
    .map((kbd) => kbd.textContent ?? '');
}

describe('the shortcut help', () => {
  it('lists every key a row answers to, the timer included', () => {
    render(<ShortcutHelp open onOpenChange={() => {}} />);
    expect(screen.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeTruthy();
    expect(keysFor('Start or stop its timer (a task or todo)')).toEqual(['T']);
    expect(keysFor('Change its status')).toEqual(['Space']);
    expect(keysFor('Show these shortcuts')).toEqual(['?']);
  });

  it('shows nothing while closed', () => {
    render(<ShortcutHelp open={false} onOpenChange={() => {}} />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
