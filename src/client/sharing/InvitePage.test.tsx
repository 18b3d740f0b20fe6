// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestClient } from '../../../testkit/client/renderWithApp';
import { type Door, DoorProvider } from '../app/door';
import { takeReturn } from '../app/returnAfterSignIn';
import type { OutpostClient } from '../data/client';
import { ApiError } from '../data/net/apiClient';
import { createDoor } from '../data/page';
import { toastStore } from '../stores/toastStore';
import InvitePage from './InvitePage';

const TOKEN = 'Q2hhbmdlIHRoZSB3b3JsZA';
let client: OutpostClient;
let answers: Record<string, (args: unknown) => unknown>;
let calls: string[];

beforeEach(() => {
  client = makeTestClient();
  answers = {};
  calls = [];
  toastStore.getState().clear();
  sessionStorage.clear();
});

afterEach(() => {
  cleanup();
  client.close();
});

function signedIn() {
  client.auth.setState({
    user: { id: 21, name: 'Ivy', phone: '+15550000021', created_at: '', updated_at: '' },
    isAuthenticated: true,
    isAnonymous: false,
    restored: true,
  });
}

function Where() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

function show(token = TOKEN) {
  const door = createDoor(client);
  const send = (async (name: string, args?: unknown) => {
    if (name.startsWith('sharing.')) {
      calls.push(name);
      const answer = answers[name];
      if (!answer) throw new Error(`No answer for ${name}`);
      return answer(args);
    }
    return (door.send as (n: string, a?: unknown) => Promise<unknown>)(name, args);
  }) as Door['send'];
  return render(
    <DoorProvider door={{ ...door, send }}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={[`/invite/${token}`]}>
          <Routes>
            <Route path="/invite/:token" element={<InvitePage />} />
            <Route path="*" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </DoorProvider>,
  );
}

describe('InvitePage', () => {
  it('shows the campaign, who invited and the role, and joins into the campaign’s page', async () => {
    signedIn();
    answers['sharing.invite'] = () => ({
      campaign: { id: 7, title: 'Spring fair' },
      role: 'editor',
      inviter: { id: 3, name: 'Olive Owner' },
    });
    answers['sharing.accept'] = () => ({ campaign_id: 7, role: 'editor' });
    show();
    expect(await screen.findByRole('heading', { name: 'Spring fair' })).toBeTruthy();
    expect(screen.getByText('Olive Owner')).toBeTruthy();
    expect(screen.getByText('Editor')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Join' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/campaigns/7'));
    expect(toastStore.getState().queue.at(-1)).toMatchObject({ title: 'You joined the campaign' });
  });

  it('reads every invalid invite as one friendly page with a way home, asking nothing for a malformed one', async () => {
    signedIn();
    answers['sharing.invite'] = () => {
      throw new ApiError('This invite is no longer valid.', 404);
    };
    show();
    expect(await screen.findByRole('heading', { name: 'This invite is no longer valid' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Home' }).getAttribute('href')).toBe('/');
    cleanup();
    calls = [];
    show('not%20a%20token');
    expect(await screen.findByRole('heading', { name: 'This invite is no longer valid' })).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('a join refused as invalid shows the same page', async () => {
    signedIn();
    answers['sharing.invite'] = () => ({
      campaign: { id: 7, title: 'Spring fair' },
      role: 'viewer',
      inviter: { id: 3, name: 'Olive Owner' },
    });
    answers['sharing.accept'] = () => {
      throw new ApiError('This invite is no longer valid.', 404);
    };
    show();
    fireEvent.click(await screen.findByRole('button', { name: 'Join' }));
    expect(await screen.findByRole('heading', { name: 'This invite is no longer valid' })).toBeTruthy();
  });

  it('sends a guest to sign in first and remembers to come back', async () => {
    client.auth.setState({ restored: true });
    show();
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in to join' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    expect(calls).toEqual([]);
    expect(takeReturn()).toBe(`/invite/${TOKEN}`);
  });
});
