import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { EmailKind, EmailPreferences, EmailState } from '../../shared/email';
import { useDoor } from '../app/door';
import { SERVER_LIST_KEY } from '../app/queryKeys';

/** Keys of the account's email state and switches, per person. */
export const emailKeys = {
  state: (userId: number) => [SERVER_LIST_KEY, 'email', userId, 'state'] as const,
  preferences: (userId: number) => [SERVER_LIST_KEY, 'email', userId, 'preferences'] as const,
};

/**
 * The address with its state, and the switches, asked while online. Kept for the session (no garbage
 * collection), so offline the section shows the last state it knew.
 */
export function useEmailSettings(userId: number, online: boolean) {
  const { send } = useDoor();
  const state = useQuery({
    queryKey: emailKeys.state(userId),
    queryFn: () => send('email.state'),
    enabled: online,
    staleTime: 10_000,
    gcTime: Number.POSITIVE_INFINITY,
  });
  const preferences = useQuery({
    queryKey: emailKeys.preferences(userId),
    queryFn: () => send('email.preferences'),
    enabled: online,
    staleTime: 10_000,
    gcTime: Number.POSITIVE_INFINITY,
  });
  return { state, preferences };
}

/** The server's own words for a refusal: a 409's or 502's `error`, a 422's message, else `fallback`. */
export function serverWords(error: unknown, fallback: string): string {
  const { status, data, message } = (error ?? {}) as { status?: number; data?: unknown; message?: unknown };
  if (status === 0) return 'You are offline. Try again when the connection returns.';
  const body = (typeof data === 'object' && data !== null ? data : {}) as {
    error?: unknown;
    message?: unknown;
    errors?: Record<string, string[] | undefined>;
  };
  const field = body.errors ? Object.values(body.errors)[0]?.[0] : undefined;
  for (const words of [body.error, field, body.message])
    if (typeof words === 'string' && words.trim() !== '') return words;
  if (typeof message === 'string' && message !== '' && !message.startsWith('Request failed')) return message;
  return fallback;
}

/** What changes the address and the switches: each call answers once the server has. */
export function useEmailMutations(userId: number) {
  const { send } = useDoor();
  const queries = useQueryClient();
  return useMemo(() => {
    const refreshState = () => queries.invalidateQueries({ queryKey: emailKeys.state(userId) });
    const setPrefs = (next: EmailPreferences) => queries.setQueryData(emailKeys.preferences(userId), next);
    return {
      change: async (email: string) => {
        await send('email.change', email);
        // The address waits for its link now: shown at once, then as the server has it.
        queries.setQueryData<EmailState>(emailKeys.state(userId), (old) =>
          old ? { ...old, email, verified: false } : old,
        );
        void refreshState();
      },
      remove: async () => {
        await send('email.remove');
        queries.setQueryData<EmailState>(emailKeys.state(userId), (old) =>
          old ? { ...old, email: null, verified: false } : old,
        );
        void refreshState();
      },
      /** Turns one kind on or off; shown at once, taken back when the server refuses. */
      setKind: async (kind: EmailKind, on: boolean) => {
        const key = emailKeys.preferences(userId);
        const before = queries.getQueryData<EmailPreferences>(key);
        if (before) setPrefs({ ...before, kinds: { ...before.kinds, [kind]: on } });
        try {
          setPrefs(await send('email.updatePreferences', { kinds: { [kind]: on } }));
        } catch (error) {
          if (before) setPrefs(before);
          throw error;
        }
      },
      /** The digest's hour (null: off), read in this device's time zone, which goes along. */
      setDigestHour: async (hour: number | null) => {
        const key = emailKeys.preferences(userId);
        const before = queries.getQueryData<EmailPreferences>(key);
        const time_zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
        if (before) setPrefs({ ...before, digest_hour: hour, time_zone });
        try {
          setPrefs(await send('email.updatePreferences', { digest_hour: hour, time_zone }));
        } catch (error) {
          if (before) setPrefs(before);
          throw error;
        }
      },
      test: () => send('email.test'),
    };
  }, [send, queries, userId]);
}
