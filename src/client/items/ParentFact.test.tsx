// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import { ParentFact } from './DetailEditors';

afterEach(cleanup);

const me = {
  id: 7,
  name: 'Blair',
  phone: '+15550000007',
  created_at: '2026-01-01',
  updated_at: '2026-01-01',
};

function signedInAsMe() {
  const client = makeTestClient();
  client.auth.setState({ user: me, isAuthenticated: true, isAnonymous: false, restored: true });
  return client;
}

const task = (user_id: number) => ({
  id: 5,
  type: 'task' as const,
  title: 'Book the venue',
  user_id,
  parent_id: 3,
  description: null,
  due_date: null,
  end_date: null,
  remind_at: null,
  recurrence: null,
  assigned_to: me.id,
  status: 'pending' as const,
  completed_at: null,
  assignedUser: null,
});

describe('ParentFact', () => {
  it("says an assigned task's private campaign is private, not 'Top level', and offers no move (P12)", () => {
    signedInAsMe();
    renderWithApp(<ParentFact item={task(99)} parent={null} />);
    expect(screen.getByText('Assigned to you; its campaign is private')).toBeTruthy();
    expect(screen.queryByText('Top level')).toBeNull();
    expect(screen.queryByRole('button', { name: /Move task to/ })).toBeNull();
  });

  it('keeps Top level and Move… for an item of its own at the top level, and the parent when seen', () => {
    signedInAsMe();
    renderWithApp(<ParentFact item={{ ...task(me.id), parent_id: null }} parent={null} />);
    expect(screen.getByText('Top level')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Move task to…' })).toBeTruthy();
    cleanup();
    renderWithApp(<ParentFact item={task(99)} parent={{ id: 3, title: 'Launch', type: 'campaign' }} />);
    expect(screen.getByRole('link', { name: 'Launch' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Move task to…' })).toBeTruthy();
  });
});
