import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, render } from '@testing-library/react';
import Dexie from 'dexie';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach } from 'vitest';
import { DoorProvider } from '../../src/client/app/door';
import { createOutpostClient, type OutpostClient } from '../../src/client/data/client';
import { manualConnectivity } from '../../src/client/data/net/connectivity';
import { createDoor } from '../../src/client/data/page';
import { toastStore } from '../../src/client/stores/toastStore';

// Dexie's live queries read its global dependencies, not the ones passed to one database.
Dexie.dependencies.indexedDB = indexedDB;
Dexie.dependencies.IDBKeyRange = IDBKeyRange;

// A screen's first write loads its modules (zod, the repository) on demand: on CI's two busy cores
// that alone can pass testing-library's default second of waiting.
configure({ asyncUtilTimeout: 5_000 });

let counter = 0;
let current: OutpostClient | null = null;

/** A guest client on fake-indexeddb, offline, toasting to the app's queue; renderWithApp shows it. */
export function makeTestClient(): OutpostClient {
  counter += 1;
  const client = createOutpostClient({
    dbName: `outpost-ui-test-${Date.now()}-${counter}`,
    connectivity: manualConnectivity(false),
    locks: null,
    indexedDB,
    IDBKeyRange,
    toastStore,
  });
  current = client;
  return client;
}

/**
 * A fresh guest client (makeTestClient) for each test of the calling file, handed to `use` and to
 * renderWithApp; after the test its screen is unmounted and the client closed.
 */
export function eachTestClient(use: (client: OutpostClient) => void = () => {}): void {
  let client: OutpostClient | null = null;
  beforeEach(() => {
    client = makeTestClient();
    use(client);
  });
  afterEach(() => {
    cleanup();
    client?.close();
  });
}

/** Shows the current path so tests can see where a click navigated. */
function WhereAmI() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

export function renderWithApp(
  ui: ReactNode,
  {
    route = '/',
    path = '*',
    client = current,
  }: { route?: string; path?: string; client?: OutpostClient | null } = {},
) {
  if (!client) throw new Error('renderWithApp: make a client first (makeTestClient)');
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // The one way to give the screens a client: the door's provider, over services made from it.
  return render(
    <DoorProvider door={createDoor(client)}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[route]}>
          <Routes>
            <Route
              path={path}
              element={
                <>
                  {ui}
                  <WhereAmI />
                </>
              }
            />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </DoorProvider>,
  );
}
