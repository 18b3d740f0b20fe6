import { Component, type ComponentType, lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import type { ToastStore } from '../stores/toastStore';
import { useDoor } from './door';
import { PlainToast } from './PlainToast';
import { useMountedOnce } from './useMountedOnce';

type RegionModule = { default: ComponentType };

// Radix Toast loads with the first toast, not with the first screen; it then stays (exit animations,
// the F8 hotkey to reach later toasts).
const loadToastRegion = (): Promise<RegionModule> => import('./ToastRegion');

/** The plain toast while the region's module cannot be fetched; tries again once the device is back online. */
class RegionFallback extends Component<
  { store: ToastStore; onRetry: () => void; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidUpdate(_: unknown, before: { failed: boolean }) {
    if (this.state.failed && !before.failed)
      window.addEventListener('online', this.props.onRetry, { once: true });
  }
  override componentWillUnmount() {
    window.removeEventListener('online', this.props.onRetry);
  }
  override render() {
    return this.state.failed ? <PlainToast store={this.props.store} /> : this.props.children;
  }
}

/**
 * The toasts of the app's one queue (see ToastRegion). A first toast may come offline on a first
 * visit, when no service worker holds the region's chunk yet: the fetch fails and PlainToast shows it
 * instead, where a failed lazy import used to take the screen down.
 */
export function Toaster({ load = loadToastRegion }: { load?: () => Promise<RegionModule> }) {
  const { toasts } = useDoor();
  const pending = useStore(toasts, (s) => s.queue.length > 0);
  const mounted = useMountedOnce(pending);
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt is a new lazy component
  const Region = useMemo(() => lazy(load), [load, attempt]);
  return mounted ? (
    <RegionFallback key={attempt} store={toasts} onRetry={() => setAttempt((n) => n + 1)}>
      <Suspense fallback={null}>
        <Region />
      </Suspense>
    </RegionFallback>
  ) : null;
}
