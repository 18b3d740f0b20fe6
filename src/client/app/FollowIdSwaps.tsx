import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { swappedPath } from './idSwapRoute';
import { servicesLoaded, useServices } from './services';

/** Keeps an open /tasks/{id} or /campaigns/{id} page on its item when a temporary id is swapped. */
export function FollowIdSwaps() {
  const services = useServices();
  const navigate = useNavigate();
  const location = useLocation();
  // Read when a swap arrives, not when the subscription was made.
  const current = useRef(location);
  current.current = location;
  useEffect(() => {
    if (!servicesLoaded(services)) return;
    return services.onIdSwap((oldId, newId) => {
      const { pathname, search } = current.current;
      const next = swappedPath(pathname, oldId, newId);
      if (next) void navigate(`${next}${search}`, { replace: true });
    });
  }, [services, navigate]);
  return null;
}
