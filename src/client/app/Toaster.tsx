import { lazy, Suspense, useEffect } from 'react';
import { useStore } from 'zustand';
import { useDoor } from './door';
import { useMountedOnce } from './useMountedOnce';

// Radix Toast loads after the first screen, not with it; it then stays (exit animations, the F8 hotkey
// to reach later toasts).
const loadToastRegion = () => import('./ToastRegion');
const ToastRegion = lazy(loadToastRegion);

/**
 * Fetches the toasts' module once the first screen is idle: the first toast may come offline (a
 * change kept, a sync refused), and on a first visit no service worker holds the chunk yet, so a
 * fetch then would fail and take the screen down with it.
 */
function usePreloadToasts(): void {
  useEffect(() => {
    const load = () => void loadToastRegion().catch(() => undefined);
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(load, { timeout: 3_000 });
      return () => cancelIdleCallback(id);
    }
    const id = setTimeout(load, 1_000);
    return () => clearTimeout(id);
  }, []);
}

/** The toasts of the app's one queue (see ToastRegion). */
export function Toaster() {
  const { toasts } = useDoor();
  const pending = useStore(toasts, (s) => s.queue.length > 0);
  const mounted = useMountedOnce(pending);
  usePreloadToasts();
  return mounted ? (
    <Suspense fallback={null}>
      <ToastRegion />
    </Suspense>
  ) : null;
}
