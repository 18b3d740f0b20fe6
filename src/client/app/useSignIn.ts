import { useCallback } from 'react';
import type { UserSummary } from '../../shared/item';
import type { AuthMode } from '../data/commands/server';
import { uiStore } from '../stores/uiStore';
import { useDoor } from './door';
import { loadUpgradeOverlay } from './GlobalOverlays';
import { pageLifeRead, usePageLifeRead, usePageLifeSettled, useSetPageLifeRead } from './pageLifeRead';

/**
 * Runs a sign-in; for a guest, asks for the celebration's chunk beside the sign-in's requests and
 * starts the celebration once that chunk is here, so it opens with the screen behind it (a frame after
 * it: UpgradeOverlay's useAfterPaint). A failed load does not stop the sign-in: the overlay's own lazy
 * import tries again.
 */
async function celebratingGuest(wasGuest: boolean, signIn: () => Promise<UserSummary>): Promise<UserSummary> {
  const overlay = wasGuest ? loadUpgradeOverlay().catch(() => {}) : null;
  const user = await signIn();
  if (overlay) {
    await overlay;
    uiStore.getState().celebrate(user.name);
  }
  return user;
}

/**
 * Signs in through the data layer's auth store; when the device was a guest, starts the celebratory
 * overlay, which also shows the upload of the guest's items (the data layer starts it in onLogin).
 */
export function useSignIn(): (phone: string, name: string, code?: string) => Promise<UserSummary> {
  const { auth } = useDoor();
  return useCallback(
    async (phone, name, code) => {
      return celebratingGuest(!auth.getState().isAuthenticated, () =>
        auth.getState().login(phone, name, code),
      );
    },
    [auth],
  );
}

/**
 * Signs in with a passkey alone, through the same auth store path as the phone (a guest's items move
 * up in onLogin), with the same welcome for a guest.
 */
export function usePasskeySignIn(): () => Promise<UserSummary> {
  const { auth } = useDoor();
  return useCallback(async () => {
    return celebratingGuest(!auth.getState().isAuthenticated, () => auth.getState().loginWithPasskey());
  }, [auth]);
}

/** For the sign-in form as it opens: the anti-forgery cookie fetched now, not after the click. */
export function usePrepareSignIn(): () => void {
  const { auth } = useDoor();
  return useCallback(() => void auth.getState().prepareLogin(), [auth]);
}

export type { AuthMode };

/** Asks the server to send a sign-in code; in demo mode it sends nothing and the test code works. */
export function useRequestCode(): (phone: string) => Promise<AuthMode> {
  const { send } = useDoor();
  return useCallback((phone) => send('server.requestCode', phone), [send]);
}

const authMode = pageLifeRead((send) => send('server.authMode'));

/**
 * Which sign-in flow the server wants: asked once per page life (GET /api/auth/mode, public) and kept.
 * The ask waits while the browser is offline, and a failed one is not kept, so both sign-in screens
 * behave as in demo mode until the server has actually answered 'otp'.
 */
export function useAuthMode(): AuthMode {
  return usePageLifeRead(authMode) ?? 'demo';
}

/** Keeps the mode a later answer showed (a code asked for after all, or a demo answer to a code request). */
export function useSetAuthMode(): (mode: AuthMode) => void {
  return useSetPageLifeRead(authMode);
}

const authMethods = pageLifeRead((send) => send('server.authMethods'));

/**
 * The single sign-on button's provider name, or null when the server has none: asked only by the
 * sign-in page (GET /api/auth/methods, public) and kept for the page's life, so a guest's other pages
 * ask the server nothing. Offline or failing, there is no button. Undefined while the first ask is
 * out, so the page can hold the button's place (nothing moves under a press).
 */
export function useOidcProvider(): { name: string } | null | undefined {
  const methods = usePageLifeRead(authMethods);
  const settled = usePageLifeSettled(authMethods);
  return methods?.oidc ?? (settled ? null : undefined);
}

/** Where the browser comes back to after single sign-on: the sign-in page, which finishes it. */
export const OIDC_RETURN_PATH = '/login?signed_in=oidc';
const OIDC_WAS_GUEST_KEY = 'outpost-oidc-was-guest';

/** Leaves for the provider, remembering whether this device was a guest (its items move up on return). */
export function useStartOidcSignIn(): () => void {
  const { auth } = useDoor();
  return useCallback(() => {
    try {
      sessionStorage.setItem(OIDC_WAS_GUEST_KEY, auth.getState().isAuthenticated ? '0' : '1');
    } catch {
      // No session storage (private modes): the return reads the device as it finds it.
    }
    window.location.assign(`/api/auth/oidc/start?return_to=${encodeURIComponent(OIDC_RETURN_PATH)}`);
  }, [auth]);
}

/**
 * Back from single sign-on with a session: the same auth store path as the phone (a guest's items
 * move up in onLogin), with the same welcome for a guest.
 */
export function useFinishOidcSignIn(): () => Promise<UserSummary> {
  const { auth } = useDoor();
  return useCallback(async () => {
    let stored: string | null = null;
    try {
      stored = sessionStorage.getItem(OIDC_WAS_GUEST_KEY);
      sessionStorage.removeItem(OIDC_WAS_GUEST_KEY);
    } catch {
      // As above.
    }
    const wasGuest = stored === null ? !auth.getState().isAuthenticated : stored === '1';
    return celebratingGuest(wasGuest, () => auth.getState().finishOidcSignIn(wasGuest));
  }, [auth]);
}
