// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { eachTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { OutpostClient } from '../data/client';
import { Toaster } from './Toaster';

let client: OutpostClient;

eachTestClient((made) => {
  client = made;
});

const unreachable = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));

describe('the toaster', () => {
  it('loads nothing until the first toast, then shows it in the Radix region', async () => {
    const load = vi.fn(() => import('./ToastRegion'));
    renderWithApp(<Toaster load={load} />);
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(load).not.toHaveBeenCalled();
    act(() => void client.toasts.getState().push({ title: 'Item created' }));
    expect(await screen.findByText('Item created')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
    expect(document.querySelector('[data-plain-toast]')).toBeNull();
  });

  it('shows a toast whose module cannot be fetched as a plain one, its action working, and keeps the screen', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const undo = vi.fn();
    renderWithApp(
      <main>
        <h1>Home</h1>
        <Toaster load={unreachable} />
      </main>,
    );
    act(
      () =>
        void client.toasts.getState().push({
          title: 'Change kept on this device',
          description: 'It syncs when you are back online',
          action: { label: 'Undo', onClick: undo },
        }),
    );
    expect(await screen.findByText('Change kept on this device')).toBeTruthy();
    expect(screen.getByText('It syncs when you are back online')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Home' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(undo).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByText('Change kept on this device')).toBeNull());
    errors.mockRestore();
  });

  it('shows the newest plain toast only, gone after its time or by Dismiss', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWithApp(<Toaster load={unreachable} />);
    act(() => void client.toasts.getState().push({ title: 'First', duration: 60_000 }));
    await screen.findByText('First');
    act(() => void client.toasts.getState().push({ title: 'Second', duration: 60_000 }));
    await screen.findByText('Second');
    await waitFor(() => expect(screen.queryByText('First')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(client.toasts.getState().queue).toEqual([]));
    act(() => void client.toasts.getState().push({ title: 'Brief', duration: 30 }));
    await screen.findByText('Brief');
    await waitFor(() => expect(screen.queryByText('Brief')).toBeNull());
    errors.mockRestore();
  });

  it('tries the Radix region again once the device is back online', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    let reachable = false;
    const load = vi.fn(() => (reachable ? import('./ToastRegion') : unreachable()));
    renderWithApp(<Toaster load={load} />);
    act(() => void client.toasts.getState().push({ title: 'Offline first', duration: 60_000 }));
    await waitFor(() => expect(document.querySelector('[data-plain-toast]')).not.toBeNull());
    reachable = true;
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(document.querySelector('[data-plain-toast]')).toBeNull());
    expect(await screen.findByText('Offline first')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
    errors.mockRestore();
  });
});
