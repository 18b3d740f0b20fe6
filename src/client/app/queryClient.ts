import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../data/net/apiClient';

/** The spec's cache defaults: 3 retries with backoff from 1 s doubling to 30 s, 5 min gc, no mutation retry. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Retrying a 4xx cannot help; everything else gets the spec's three tries.
        retry: (failures, error) =>
          failures < 3 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
        retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 30_000),
        gcTime: 300_000,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
