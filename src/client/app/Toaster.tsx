import { lazy, Suspense } from 'react';
import { useStore } from 'zustand';
import { useDoor } from './door';
import { useMountedOnce } from './useMountedOnce';

// Radix Toast loads with the first toast, not with the first screen; it then stays (exit animations,
// the F8 hotkey to reach later toasts).
const ToastRegion = lazy(() => import('./ToastRegion'));

/** The toasts of the app's one queue (see ToastRegion). */
export function Toaster() {
  const { toasts } = useDoor();
  const pending = useStore(toasts, (s) => s.queue.length > 0);
  const mounted = useMountedOnce(pending);
  return mounted ? (
    <Suspense fallback={null}>
      <ToastRegion />
    </Suspense>
  ) : null;
}
