import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { UserSummary } from '../../shared/item';
import { uiStore } from '../stores/uiStore';
import { useServices } from './services';

/**
 * Signs in through the data layer's auth store; when the device was a guest, starts the celebratory
 * overlay, which also shows the upload of the guest's items (the data layer starts it in onLogin).
 */
export function useSignIn(): (phone: string, name: string, code?: string) => Promise<UserSummary> {
  const { auth } = useServices();
  return useCallback(
    async (phone, name, code) => {
      const wasGuest = !auth.getState().isAuthenticated;
      const user = await auth.getState().login(phone, name, code);
      if (wasGuest) uiStore.getState().celebrate(user.name);
      return user;
    },
    [auth],
  );
}

export type AuthMode = 'demo' | 'otp';

/** Asks the server to send a sign-in code; in demo mode it sends nothing and the test code works. */
export function useRequestCode(): (phone: string) => Promise<AuthMode> {
  const { api } = useServices();
  return useCallback(
    async (phone) => {
      await api.csrfCookie();
      const { data } = await api.post<{ mode?: AuthMode }>('/login/code', { phone });
      return data.mode === 'otp' ? 'otp' : 'demo';
    },
    [api],
  );
}

export const AUTH_MODE_QUERY_KEY = ['auth-mode'] as const;

/**
 * Which sign-in flow the server wants: asked once per page life (GET /api/auth/mode, public) and kept.
 * React Query holds the request while the browser is offline, and a failed request is not cached, so
 * both sign-in screens behave as in demo mode until the server has actually answered 'otp'.
 */
export function useAuthMode(): AuthMode {
  const { api } = useServices();
  const { data } = useQuery({
    queryKey: AUTH_MODE_QUERY_KEY,
    queryFn: async () => {
      const { data: body } = await api.get<{ mode?: unknown }>('/auth/mode');
      return body.mode === 'otp' ? ('otp' as const) : ('demo' as const);
    },
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  return data ?? 'demo';
}
