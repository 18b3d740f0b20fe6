import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useSignedInUser } from './door';

/** Where a guest was when a screen sent them to sign in (an invite link), for this tab only. */
const RETURN_KEY = 'outpost.returnAfterSignIn';

/** Remembers `path` (a same-origin path) to come back to once the guest has signed in. */
export function rememberReturn(path: string): void {
  if (!path.startsWith('/') || path.startsWith('//')) return;
  try {
    sessionStorage.setItem(RETURN_KEY, path);
  } catch {
    // No session storage (a locked-down browser): sign-in ends on Home as usual.
  }
}

/** The remembered path, once: reading it forgets it. */
export function takeReturn(): string | null {
  try {
    const path = sessionStorage.getItem(RETURN_KEY);
    sessionStorage.removeItem(RETURN_KEY);
    return path?.startsWith('/') && !path.startsWith('//') ? path : null;
  } catch {
    return null;
  }
}

/**
 * Sign-in ends on Home; a guest sent to it from an invite link goes back there instead, with their
 * local items (the guest upgrade moves them as for any sign-in).
 */
export function useReturnAfterSignIn(): void {
  const user = useSignedInUser();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (!user || pathname !== '/') return;
    const path = takeReturn();
    if (path) navigate(path, { replace: true });
  }, [user, pathname, navigate]);
}
