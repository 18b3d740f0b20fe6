// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeTestClient } from '../../../testkit/client/renderWithApp';
import { TOO_MANY_INVITES_MESSAGE, VIEWER_READ_ONLY_MESSAGE } from '../../shared/membership';
import { type Door, DoorProvider } from '../app/door';
import CampaignDetailPage from '../campaigns/CampaignDetailPage';
import type { OutpostClient } from '../data/client';
import type { CampaignMember } from '../data/commands/sharing';
import { ApiError } from '../data/net/apiClient';
import { createDoor } from '../data/page';
import { META_KEYS, setMeta } from '../data/store/db';
import CreateItemDialog from '../items/CreateItemDialog';
import { toastStore } from '../stores/toastStore';
import TaskDetailPage from '../tasks/TaskDetailPage';
import { PICKER_WHY, ShareButton } from './ShareDialog';

let client: OutpostClient;
let calls: { name: string; args: unknown }[];
let answers: Record<string, (args: unknown) => unknown>;

const ME = { id: 11, name: 'Olive Owner', phone: '+15550000011', created_at: '', updated_at: '' };
const EDDIE: CampaignMember = {
  user: { id: 12, name: 'Eddie Editor', phone: '+15550000012' },
  role: 'editor',
  added_at: '2026-11-20T10:00:00Z',
};
const OWNER: CampaignMember = { user: { ...ME }, role: 'owner', added_at: null };

beforeEach(() => {
  client = makeTestClient();
  calls = [];
  answers = {};
  toastStore.getState().clear();
});

afterEach(() => {
  cleanup();
  client.close();
});

function signedIn(user = ME) {
  client.auth.setState({ user, isAuthenticated: true, isAnonymous: false, restored: true });
  client.status.getState().setOnline(true);
}

function Where() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

/** The app's providers over a door whose sharing commands answer from `answers` (no server). */
function show(ui: ReactNode, route = '/campaigns/5', path = '/campaigns/:id') {
  const door = createDoor(client);
  const send = (async (name: string, args?: unknown) => {
    if (name.startsWith('sharing.')) {
      calls.push({ name, args });
      const answer = answers[name];
      if (!answer) throw new Error(`No answer for ${name}`);
      return answer(args);
    }
    return (door.send as (n: string, a?: unknown) => Promise<unknown>)(name, args);
  }) as Door['send'];
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <DoorProvider door={{ ...door, send }}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[route]}>
          <Routes>
            <Route
              path={path}
              element={
                <>
                  {ui}
                  <Where />
                </>
              }
            />
            <Route path="*" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </DoorProvider>,
  );
}

const campaign = { id: 5, title: 'Garden', user_id: ME.id, my_role: 'owner' as const };

async function openDialog() {
  fireEvent.click(await screen.findByRole('button', { name: 'Share' }));
  return screen.findByRole('dialog', { name: 'Share “Garden”' });
}

describe('ShareButton', () => {
  it('offers a guest sign-in instead of sharing', () => {
    show(<ShareButton campaign={campaign} />);
    const link = screen.getByRole('link', { name: 'Sign in to share' });
    expect(link.getAttribute('href')).toBe('/login');
  });

  it('lists the members owner first with phone and role, and lets the owner add a mutual contact as viewer', async () => {
    signedIn();
    await setMeta(client.db, META_KEYS.mutuals, {
      userId: ME.id,
      fetchedAt: Date.now(),
      list: [
        { id: 12, name: 'Eddie Editor', phone: '+15550000012' },
        { id: 13, name: 'Vera Viewer', phone: '+15550000013' },
      ],
    });
    let members = [OWNER, EDDIE];
    answers['sharing.members'] = () => members;
    answers['sharing.invites'] = () => [];
    answers['sharing.addMember'] = (a) => {
      const { userId, role } = a as { userId: number; role: 'viewer' };
      const added: CampaignMember = {
        user: { id: userId, name: 'Vera Viewer', phone: null },
        role,
        added_at: '',
      };
      members = [...members, added];
      return added;
    };
    show(<ShareButton campaign={campaign} />);
    const dialog = await openDialog();
    const list = await within(dialog).findByRole('list', { name: 'Members' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('Olive Owner (you)+15550000011Owner'),
      expect.stringContaining('Eddie Editor+15550000012'),
    ]);
    expect((within(rows[1]!).getByLabelText('Role of Eddie Editor') as HTMLSelectElement).value).toBe(
      'editor',
    );

    // Eddie is a member already: only Vera is offered.
    const person = (await within(dialog).findByLabelText('Person')) as HTMLSelectElement;
    expect([...person.options].map((o) => o.text)).toEqual(['Choose a contact…', 'Vera Viewer']);
    fireEvent.change(person, { target: { value: '13' } });
    fireEvent.change(within(dialog).getByLabelText('Role'), { target: { value: 'viewer' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'sharing.addMember')?.args).toEqual({
        campaignId: 5,
        userId: 13,
        role: 'viewer',
      }),
    );
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3));
    expect(within(list).getAllByRole('listitem')[2]?.textContent).toContain('Vera Viewer');
    expect(toastStore.getState().queue.at(-1)).toMatchObject({ title: 'Member added' });
  });

  it('leads the owner’s dialog with Invite by link and says plainly why someone is not in the picker', async () => {
    signedIn();
    answers['sharing.members'] = () => [OWNER];
    answers['sharing.invites'] = () => [];
    show(<ShareButton campaign={campaign} />);
    const dialog = await openDialog();
    await within(dialog).findByRole('list', { name: 'Members' });
    const headings = within(dialog)
      .getAllByRole('heading', { level: 3 })
      .map((h) => h.textContent);
    expect(headings[0]).toBe('Invite by link');
    expect(headings).toContain('Add a contact');
    expect(within(dialog).getByTestId('picker-why').textContent).toContain(PICKER_WHY);
    expect(within(dialog).getByRole('button', { name: 'Create link' })).toBeTruthy();
  });

  it('changes a role by its select and removes a member only after the confirm', async () => {
    signedIn();
    answers['sharing.members'] = () => [OWNER, EDDIE];
    answers['sharing.invites'] = () => [];
    answers['sharing.setRole'] = () => undefined;
    answers['sharing.removeMember'] = () => undefined;
    show(<ShareButton campaign={campaign} />);
    const dialog = await openDialog();
    fireEvent.change(await within(dialog).findByLabelText('Role of Eddie Editor'), {
      target: { value: 'viewer' },
    });
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'sharing.setRole')?.args).toEqual({
        campaignId: 5,
        userId: 12,
        role: 'viewer',
      }),
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove Eddie Editor' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Remove Eddie Editor?' });
    expect(calls.some((c) => c.name === 'sharing.removeMember')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'sharing.removeMember')?.args).toEqual({
        campaignId: 5,
        userId: 12,
      }),
    );
  });

  it('shows the server’s message when it refuses, in the spec’s toast', async () => {
    signedIn();
    await setMeta(client.db, META_KEYS.mutuals, {
      userId: ME.id,
      fetchedAt: Date.now(),
      list: [{ id: 14, name: 'Nora Nomutual', phone: '+15550000014' }],
    });
    answers['sharing.members'] = () => [OWNER];
    answers['sharing.invites'] = () => [];
    answers['sharing.addMember'] = () => {
      throw new ApiError('You can share a campaign only with one of your mutual contacts.', 422);
    };
    show(<ShareButton campaign={campaign} />);
    const dialog = await openDialog();
    fireEvent.change(await within(dialog).findByLabelText('Person'), { target: { value: '14' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(toastStore.getState().queue.at(-1)).toMatchObject({
        title: 'Error',
        description: 'You can share a campaign only with one of your mutual contacts.',
        variant: 'destructive',
      }),
    );
  });

  it('gives a member the list read-only and Leave campaign, with no add or invite controls', async () => {
    const eddie = { id: 12, name: 'Eddie Editor', phone: '+15550000012', created_at: '', updated_at: '' };
    signedIn(eddie);
    answers['sharing.members'] = () => [OWNER, EDDIE];
    answers['sharing.removeMember'] = () => undefined;
    show(<ShareButton campaign={{ ...campaign, my_role: 'editor' }} />);
    const dialog = await openDialog();
    await within(dialog).findByRole('list', { name: 'Members' });
    expect(within(dialog).queryByRole('combobox')).toBeNull();
    expect(within(dialog).queryByText('Invite by link')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Leave campaign' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Leave “Garden”?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Leave' }));
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'sharing.removeMember')?.args).toEqual({
        campaignId: 5,
        userId: 12,
      }),
    );
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/campaigns'));
  });

  it('makes an invite link within the schema’s bounds, copies it or selects it to copy by hand, and revokes an open one', async () => {
    signedIn();
    let invites = [
      { id: 3, role: 'editor' as const, expires_at: '2026-12-01T00:00:00Z', max_uses: 5, uses: 2 },
    ];
    answers['sharing.members'] = () => [OWNER];
    answers['sharing.invites'] = () => invites;
    answers['sharing.createInvite'] = (a) => ({
      ...(a as object),
      token: 'abcdefghijklmnopqrstuv',
      url: 'http://localhost/invite/abcdefghijklmnopqrstuv',
      expires_at: '2026-12-02T00:00:00Z',
      uses: 0,
    });
    answers['sharing.revokeInvite'] = () => {
      invites = [];
      return undefined;
    };
    show(<ShareButton campaign={campaign} />);
    const dialog = await openDialog();
    const days = await within(dialog).findByLabelText('Expires in (days)');
    fireEvent.change(days, { target: { value: '31' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(await within(dialog).findByText('An invite lasts 1 to 30 days.')).toBeTruthy();
    expect(calls.some((c) => c.name === 'sharing.createInvite')).toBe(false);

    fireEvent.change(days, { target: { value: '3' } });
    fireEvent.change(within(dialog).getByLabelText('Uses'), { target: { value: '10' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create link' }));
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'sharing.createInvite')?.args).toEqual({
        campaignId: 5,
        role: 'viewer',
        expires_in_days: 3,
        max_uses: 10,
      }),
    );
    const link = (await within(dialog).findByLabelText('Invite link (shown once)')) as HTMLInputElement;
    expect(link.value).toBe('http://localhost/invite/abcdefghijklmnopqrstuv');

    // No clipboard here: the link is selected and the hint says how to copy it.
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy link' }));
    expect(await within(dialog).findByText(/The link is selected: press Ctrl\+C/)).toBeTruthy();
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy link' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(link.value));
    expect(await within(dialog).findByRole('button', { name: 'Copied' })).toBeTruthy();

    const open = within(dialog).getByRole('list', { name: 'Open invites' });
    expect(open.textContent).toContain('Editor');
    expect(open.textContent).toContain('2 of 5 uses');
    fireEvent.click(within(open).getByRole('button', { name: /^Revoke invite/ }));
    await waitFor(() => expect(calls.find((c) => c.name === 'sharing.revokeInvite')?.args).toBe('3'));
  });
});

describe('the invite links’ cap', () => {
  it('M13: shows the server’s 422 for a 51st open link beside the form, and in the toast', async () => {
    signedIn();
    answers['sharing.members'] = () => [OWNER];
    answers['sharing.invites'] = () => [];
    answers['sharing.createInvite'] = () => {
      throw new ApiError(TOO_MANY_INVITES_MESSAGE, 422);
    };
    show(<ShareButton campaign={campaign} />);
    const dialog = await openDialog();
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Create link' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(TOO_MANY_INVITES_MESSAGE);
    await waitFor(() =>
      expect(toastStore.getState().queue.at(-1)).toMatchObject({
        description: TOO_MANY_INVITES_MESSAGE,
        variant: 'destructive',
      }),
    );
    expect(within(dialog).queryByLabelText('Invite link (shown once)')).toBeNull();
  });
});

describe('a viewer’s campaign', () => {
  it('is read-only: no quick add, status or editors, and the line that says why', async () => {
    const created = await client.items.create({ title: 'Their garden', type: 'campaign' });
    const todo = await client.items.create({ title: 'Water', type: 'todo', parent_id: created.id });
    await act(async () => {
      await client.db.items.update(created.id, { my_role: 'viewer' } as never);
      await client.db.items.update(todo.id, { my_role: 'viewer' } as never);
    });
    show(<CampaignDetailPage />, `/campaigns/${created.id}`);
    expect(await screen.findByText(VIEWER_READ_ONLY_MESSAGE)).toBeTruthy();
    await screen.findByText('Water');
    const main = document.body;
    expect(within(main).queryByRole('button', { name: /^(Start|Complete|Reopen)$/ })).toBeNull();
    expect(within(main).queryByRole('button', { name: /^Add/ })).toBeNull();
    expect(within(main).queryByRole('textbox')).toBeNull();
    expect(within(main).queryByRole('combobox')).toBeNull();
    expect(within(main).queryByRole('button', { name: /More actions|Delete|Assign/ })).toBeNull();
    // What is still a button is the row's status, disabled, the tabs and Sign in to share (a guest here).
    const enabled = within(main)
      .queryAllByRole('button')
      .filter((b) => !(b as HTMLButtonElement).disabled)
      .map((b) => b.textContent);
    expect(enabled).toEqual([]);
  });

  it('gives the phone’s add button nothing to create in it: the dialog says why and Create is disabled', async () => {
    const created = await client.items.create({ title: 'Their garden', type: 'campaign' });
    await act(async () => {
      await client.db.items.update(created.id, { my_role: 'viewer' } as never);
    });
    show(<CreateItemDialog open onOpenChange={() => {}} parentId={created.id} />);
    const dialog = await screen.findByRole('dialog', { name: 'Create New Item' });
    expect(await within(dialog).findByText(VIEWER_READ_ONLY_MESSAGE)).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: /^Create / }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('keeps its tasks read-only too: no quick add, status, editors or enabled control outside the timeline', async () => {
    const task = await client.items.create({ title: 'Stalls', type: 'task' });
    await client.items.create({ title: 'Count tables', type: 'todo', parent_id: task.id });
    await act(async () => {
      await client.db.items.update(task.id, { my_role: 'viewer' } as never);
    });
    show(<TaskDetailPage />, `/tasks/${task.id}`, '/tasks/:id');
    expect(await screen.findByText(VIEWER_READ_ONLY_MESSAGE)).toBeTruthy();
    await screen.findByText('Count tables');
    expect(screen.queryByRole('button', { name: /^(Start|Complete|Reopen)$/ })).toBeNull();
    expect(screen.queryByRole('form')).toBeNull();
    expect(screen.queryByRole('combobox')).toBeNull();
  });
});
