import { useEffect } from 'react';
import { swappedPath } from './idSwapRoute';
import type { createAppRouter } from './router';
import { servicesLoaded, useServices } from './services';

/** Keeps an open /tasks/{id} or /campaigns/{id} page on its item when a temporary id is swapped. */
export function FollowIdSwaps({ router }: { router: ReturnType<typeof createAppRouter> }) {
  const services = useServices();
  useEffect(() => {
    if (!servicesLoaded(services)) return;
    return services.client.onIdSwap((oldId, newId) => {
      const { pathname, search } = router.state.location;
      const next = swappedPath(pathname, oldId, newId);
      if (next) void router.navigate(`${next}${search}`, { replace: true });
    });
  }, [services, router]);
  return null;
}
