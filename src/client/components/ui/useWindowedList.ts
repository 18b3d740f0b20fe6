import { useLayoutEffect, useRef, useState } from 'react';

export interface WindowedListOptions {
  count: number;
  /** Every row has this height in pixels; the rows are styled to match exactly. */
  rowHeight: number;
  /** Rows rendered beyond each edge of the viewport, so fast scrolling does not show blanks. */
  overscan?: number;
}

export interface WindowedList {
  containerRef: React.RefObject<HTMLDivElement | null>;
  start: number;
  end: number;
  totalHeight: number;
  offsetTop: number;
}

/** Rows rendered before the first measurement (and in jsdom, which has no layout). */
const FIRST_PAINT_ROWS = 24;

/**
 * Windowing against the browser viewport: the list sits in the page's own scroll (a phone scrolls the
 * page, not a box), so the visible range is the part of the container between the viewport's top and
 * bottom. A capturing scroll listener also catches scrolling inside any ancestor, whatever the shell uses.
 */
export function useWindowedList({ count, rowHeight, overscan = 8 }: WindowedListOptions): WindowedList {
  const containerRef = useRef<HTMLDivElement | null>(null);
  const [range, setRange] = useState(() => ({ start: 0, end: Math.min(count, FIRST_PAINT_ROWS) }));

  useLayoutEffect(() => {
    let frame = 0;
    const measure = () => {
      frame = 0;
      const el = containerRef.current;
      if (!el) return;
      const rect = el.getBoundingClientRect();
      const viewport = window.innerHeight || document.documentElement.clientHeight || 800;
      // Pixels of the list above the viewport's top edge and down to its bottom edge.
      const from = Math.max(0, -rect.top);
      const to = Math.max(0, viewport - rect.top);
      let start = Math.max(0, Math.floor(from / rowHeight) - overscan);
      let end = Math.min(count, Math.ceil(to / rowHeight) + overscan);
      if (end <= start) {
        // The list is entirely off screen: keep a small head rendered so focus and find-in-page have targets.
        start = 0;
        end = Math.min(count, overscan);
      }
      setRange((prev) => (prev.start === start && prev.end === end ? prev : { start, end }));
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(measure);
    };
    measure();
    document.addEventListener('scroll', schedule, { passive: true, capture: true });
    window.addEventListener('resize', schedule);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(schedule);
    if (observer && containerRef.current?.parentElement) observer.observe(containerRef.current.parentElement);
    return () => {
      if (frame !== 0) cancelAnimationFrame(frame);
      document.removeEventListener('scroll', schedule, { capture: true });
      window.removeEventListener('resize', schedule);
      observer?.disconnect();
    };
  }, [count, rowHeight, overscan]);

  const end = Math.min(range.end, count);
  const start = Math.min(range.start, end);
  return { containerRef, start, end, totalHeight: count * rowHeight, offsetTop: start * rowHeight };
}
