// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { eachTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { OutpostClient } from '../data/client';
import { ConnectivityBadge } from './ConnectivityBadge';

let client: OutpostClient;

eachTestClient((made) => {
  client = made;
});

describe('the connectivity badge', () => {
  it('is a button that syncs now while changes wait for a server that did not answer, its text still the status (P15)', async () => {
    const sync = vi.spyOn(client.engine, 'sync');
    client.status.setState({
      online: true,
      serverReachable: false,
      pendingCount: 2,
      changedAt: Date.now(),
    });
    renderWithApp(<ConnectivityBadge />);
    const status = document.querySelector('[data-connection]')!;
    expect(status.textContent).toBe('Server unreachable (2 pending)');
    fireEvent.click(screen.getByRole('button', { name: 'Server unreachable (2 pending). Sync now' }));
    await waitFor(() => expect(sync).toHaveBeenCalledWith(expect.objectContaining({ manual: true })));
  });

  it('is no button offline, online, or with nothing waiting', async () => {
    client.status.setState({
      online: false,
      serverReachable: false,
      pendingCount: 2,
      changedAt: Date.now(),
    });
    renderWithApp(<ConnectivityBadge />);
    expect(document.querySelector('[data-connection]')?.textContent).toContain('Offline');
    expect(document.querySelector('[data-connection] button')).toBeNull();
    const badge = () => document.querySelector('[data-connection]');
    act(() =>
      client.status.setState({ online: true, serverReachable: true, pendingCount: 2, changedAt: Date.now() }),
    );
    await waitFor(() => expect(badge()?.getAttribute('data-connection')).toBe('online'));
    expect(badge()?.querySelector('button')).toBeNull();
    act(() =>
      client.status.setState({
        online: true,
        serverReachable: false,
        pendingCount: 0,
        changedAt: Date.now(),
      }),
    );
    await waitFor(() => expect(badge()?.getAttribute('data-connection')).toBe('unreachable'));
    expect(badge()?.querySelector('button')).toBeNull();
  });
});
