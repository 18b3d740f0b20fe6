import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import Dexie from 'dexie';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { createOutpostClient, type OutpostClient } from '../../data/client';
import { manualConnectivity } from '../../data/connectivity';
import { setOutpostClientForTests } from '../../items/dataAdapter';

// Dexie's live queries read its global dependencies, not the ones passed to one database.
Dexie.dependencies.indexedDB = indexedDB;
Dexie.dependencies.IDBKeyRange = IDBKeyRange;

let counter = 0;

/** A guest client on fake-indexeddb, offline, wired into the screens' adapter. */
export function makeTestClient(): OutpostClient {
  counter += 1;
  const client = createOutpostClient({
    dbName: `outpost-ui-test-${Date.now()}-${counter}`,
    connectivity: manualConnectivity(false),
    locks: null,
    indexedDB,
    IDBKeyRange,
  });
  setOutpostClientForTests(client);
  return client;
}

/** Shows the current path so tests can see where a click navigated. */
function WhereAmI() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

export function renderWithApp(
  ui: ReactNode,
  { route = '/', path = '*' }: { route?: string; path?: string } = {},
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
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
    </QueryClientProvider>,
  );
}
