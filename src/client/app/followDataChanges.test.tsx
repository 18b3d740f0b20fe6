// @vitest-environment jsdom
import { QueryClient, QueryClientProvider, QueryObserver } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createSyncStatusStore } from '../stores/syncStatusStore';
import { type Door, DoorProvider } from './door';
import { SERVER_LIST_KEY } from './queryKeys';
import { FollowDataChanges } from './queryProvider';

afterEach(cleanup);

describe('the server lists and the change signal', () => {
  it('E8: a page with three parts that follow the signal asks the server once per change, not three times', async () => {
    const syncStatus = createSyncStatusStore(true);
    const queryClient = new QueryClient();
    let fetches = 0;
    const observer = new QueryObserver(queryClient, {
      queryKey: [SERVER_LIST_KEY, 'devices'],
      queryFn: async () => ++fetches,
      staleTime: 0,
    });
    const off = observer.subscribe(() => {});
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetches).toBe(1);
    // Preferences mounts it in the page and in each of its two lazily loaded parts.
    render(
      <DoorProvider door={{ syncStatus } as unknown as Door}>
        <QueryClientProvider client={queryClient}>
          <FollowDataChanges />
          <FollowDataChanges />
          <FollowDataChanges />
        </QueryClientProvider>
      </DoorProvider>,
    );
    syncStatus.getState().set({ dataVersion: 1 });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(fetches).toBe(2);
    cleanup();
    // Unmounted, nothing follows the signal any more.
    syncStatus.getState().set({ dataVersion: 2 });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(fetches).toBe(2);
    off();
  });
});
