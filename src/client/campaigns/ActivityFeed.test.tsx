// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { COMMENT_NOT_SHOWN } from '../../shared/activity';
import type { ActivityEntry } from '../../shared/item';
import { HistoryRow } from '../comments/Timeline';
import { Entry } from './ActivityFeed';

afterEach(() => cleanup());

const base: ActivityEntry = {
  id: 7,
  user: { id: 1, name: 'Alex' },
  action: 'created',
  item: { id: 3, type: 'todo', title: 'Build 813 broke' },
  description: 'Alex created todo "Build 813 broke"',
  metadata: {},
  created_at: '2026-11-28T10:00:00.000Z',
  via: null,
};

const shown = (entry: ActivityEntry) => {
  render(
    <ol>
      <Entry entry={entry} />
    </ol>,
  );
  return screen.getAllByRole('listitem')[0]?.textContent ?? '';
};

describe('a campaign activity entry', () => {
  it('names the token a change came through, and nothing for one made in the app', () => {
    expect(shown({ ...base, via: 'Nightly build' })).toContain(
      'Alex created todo “Build 813 broke” via Nightly build',
    );
    cleanup();
    expect(shown(base)).not.toContain('via');
  });

  it('shows a comment’s first words, never its id, and one neutral line once it is gone', () => {
    const commented = { ...base, action: 'commented' as const, metadata: { comment_id: 3 } };
    const words = shown({ ...commented, comment: 'Log attached, see line 40' });
    expect(words).toContain('Alex commented on todo “Build 813 broke”');
    expect(words).toContain('“Log attached, see line 40”');
    expect(words).not.toMatch(/Comment id/);
    cleanup();
    expect(shown({ ...commented, comment: null })).toContain(COMMENT_NOT_SHOWN);
  });
});

describe('an item history row', () => {
  it('names the token a change came through', () => {
    render(
      <ul>
        <HistoryRow
          entry={{
            id: 1,
            user: { id: 1, name: 'Alex' },
            at: '2026-11-28T10:00:00.000Z',
            action: 'updated',
            changes: { priority: { from: 4, to: 1 } },
            via: 'Nightly build',
          }}
          canRestore={false}
          onRestore={() => {}}
        />
      </ul>,
    );
    expect(screen.getByRole('listitem').textContent).toMatch(/^Alex .* via Nightly build · /);
  });
});
