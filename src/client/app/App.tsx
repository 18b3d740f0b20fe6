import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { FollowIdSwaps } from './FollowIdSwaps';
import { createQueryClient } from './queryClient';
import { createAppRouter } from './router';
import { ServicesProvider } from './services';
import { useThemeSync } from './theme';

export function App() {
  // Created once per mount (not at import) so tests can render a fresh app.
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createAppRouter);
  useThemeSync();
  return (
    <ServicesProvider>
      <FollowIdSwaps router={router} />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </ServicesProvider>
  );
}
