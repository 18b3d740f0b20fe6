import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { createQueryClient } from './queryClient';

let client: QueryClient | null = null;

/** The page's one QueryClient: every screen shares its cache (auth mode, campaign pages, mutuals). */
export function appQueryClient(): QueryClient {
  client ??= createQueryClient();
  return client;
}

/**
 * A screen inside the app's QueryClient. Only the screens that read server-only data (sign-in,
 * onboarding, campaigns, contacts) are wrapped, so TanStack Query loads with them and never with
 * Home or the lists, which read the device.
 */
export function withQueryClient(Screen: ComponentType): ComponentType {
  return function WithQueryClient() {
    return (
      <QueryClientProvider client={appQueryClient()}>
        <Screen />
      </QueryClientProvider>
    );
  };
}
