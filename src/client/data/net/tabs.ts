import type { AuthStore } from '../../stores/authStore';

type AuthMessage = { type: 'signed-out' } | { type: 'signed-in'; userId: number };

/**
 * Signing out in one tab signs out every tab of the browser profile, and signing in in one makes the
 * others check the (shared) session cookie: without it a second tab would keep showing an account
 * whose session the server has already deleted until its next request failed.
 */
export function shareAuthAcrossTabs(
  auth: AuthStore,
  channelName: string,
  onSignedInElsewhere: () => void,
): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const channel = new BroadcastChannel(channelName);
  // Applying another tab's change must not echo it back as this tab's own.
  let applying = false;
  channel.onmessage = (event: MessageEvent<AuthMessage>) => {
    const message = event.data;
    const state = auth.getState();
    applying = true;
    try {
      if (message.type === 'signed-out' && state.isAuthenticated) state.toGuest();
      if (message.type === 'signed-in' && (!state.isAuthenticated || state.user.id !== message.userId)) {
        onSignedInElsewhere();
      }
    } finally {
      applying = false;
    }
  };
  const off = auth.subscribe((state, prev) => {
    if (applying) return;
    if (prev.isAuthenticated && !state.isAuthenticated) {
      channel.postMessage({ type: 'signed-out' } satisfies AuthMessage);
    } else if (state.isAuthenticated && (!prev.isAuthenticated || prev.user.id !== state.user.id)) {
      channel.postMessage({ type: 'signed-in', userId: state.user.id } satisfies AuthMessage);
    }
  });
  return () => {
    off();
    channel.close();
  };
}
