import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router';

/** Scroll positions by history entry, for this page's life (Back restores, a new page starts at the top). */
const positions = new Map<string, number>();

/**
 * A new page opens at the top; Back and Forward return to where the user was on that page. Only a
 * change of page counts: a same-page hash link (Skip to content) keeps the browser's own scrolling.
 */
export function useScrollRestoration(): void {
  const location = useLocation();
  const navigationType = useNavigationType();
  const page = location.pathname + location.search;
  const key = useRef(location.key);
  key.current = location.key;
  const lastPage = useRef(page);

  useEffect(() => {
    // This hook restores positions; the browser's own attempt would jump before the page has rendered.
    window.history.scrollRestoration = 'manual';
    let frame = 0;
    const remember = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => positions.set(key.current, window.scrollY));
    };
    window.addEventListener('scroll', remember, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', remember);
    };
  }, []);

  useLayoutEffect(() => {
    if (lastPage.current === page) return;
    lastPage.current = page;
    const saved = navigationType === 'POP' ? positions.get(location.key) : undefined;
    window.scrollTo(0, saved ?? 0);
  }, [page, location.key, navigationType]);
}
