import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';

/** Below this many rows everything renders: windowing only pays off for long timelines. */
export const TIMELINE_WINDOW_FROM = 40;
/** Rows in the first commit, before the window is measured (the layout effect corrects it before paint). */
const FIRST_PAINT_ROWS = 4;
/** Rows rendered beyond each edge of the viewport, so fast scrolling does not show blanks. */
const OVERSCAN = 6;
/** The space between two rows (the list's gap-2). */
export const ROW_GAP = 8;
/** How close (px) the list's end may come to the viewport's bottom before the next page is asked for. */
const NEAR_END_PX = 800;

export interface TimelineWindow {
  containerRef: React.RefObject<HTMLDivElement | null>;
  start: number;
  end: number;
  /** Empty space standing in for the rows above and below the rendered ones. */
  padTop: number;
  padBottom: number;
  /** The end of the list is within reach of the viewport: time to load the next page. */
  nearEnd: boolean;
  /** Gives a rendered row's element, so its real height replaces the estimate. */
  measure: (key: string, el: HTMLElement | null) => void;
  /** Scrolls the page so row `index` is rendered and near the middle of the viewport. */
  scrollToIndex: (index: number) => void;
}

/**
 * Windowing for rows of different heights (a history line, a comment card of any length) against the
 * browser viewport, as useWindowedList does for fixed rows: the timeline sits in the page's own
 * scroll. Each row's height is its estimate until it has been rendered once, then its measurement
 * (kept by key, so a page of rows arriving later does not lose what was measured). Short lists render
 * whole (`windowed` false) but still report `nearEnd`, which drives loading the next page.
 */
export function useTimelineWindow(
  keys: readonly string[],
  estimate: (index: number) => number,
  windowed: boolean,
): TimelineWindow {
  const containerRef = useRef<HTMLDivElement | null>(null);
  const heights = useRef(new Map<string, number>());
  const [measured, setMeasured] = useState(0);
  const [range, setRange] = useState({ start: 0, end: FIRST_PAINT_ROWS });
  const [nearEnd, setNearEnd] = useState(false);
  const count = keys.length;

  // Each row's top, and the whole height: a prefix sum over measured or estimated heights.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `measured` counts new measurements in the ref.
  const offsets = useMemo(() => {
    const tops = new Float64Array(count + 1);
    for (let i = 0; i < count; i++) {
      const h = heights.current.get(keys[i]!) ?? estimate(i);
      tops[i + 1] = tops[i]! + h + ROW_GAP;
    }
    return tops;
  }, [keys, count, estimate, measured]);
  const offsetsRef = useRef(offsets);
  offsetsRef.current = offsets;

  const observer = useRef<ResizeObserver | null>(null);
  const elements = useRef(new Map<Element, string>());
  const remember = useCallback((key: string, height: number) => {
    if (height <= 0 || heights.current.get(key) === height) return;
    heights.current.set(key, height);
    setMeasured((n) => n + 1);
  }, []);
  const measure = useCallback(
    (key: string, el: HTMLElement | null) => {
      if (!el) return;
      if (!observer.current && typeof ResizeObserver !== 'undefined') {
        observer.current = new ResizeObserver((entries) => {
          for (const entry of entries) {
            const k = elements.current.get(entry.target);
            if (!entry.target.isConnected) elements.current.delete(entry.target);
            else if (k !== undefined) remember(k, (entry.target as HTMLElement).offsetHeight);
          }
        });
      }
      if (!elements.current.has(el)) {
        elements.current.set(el, key);
        observer.current?.observe(el);
      }
      remember(key, el.offsetHeight);
    },
    [remember],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: new offsets (a row measured) move the window.
  useLayoutEffect(() => {
    let frame = 0;
    const update = () => {
      frame = 0;
      const el = containerRef.current;
      if (!el) return;
      const rect = el.getBoundingClientRect();
      const viewport = window.innerHeight || document.documentElement.clientHeight || 800;
      setNearEnd(rect.bottom - viewport < NEAR_END_PX);
      if (!windowed) return;
      const tops = offsetsRef.current;
      const from = Math.max(0, -rect.top);
      const to = Math.max(0, viewport - rect.top);
      // The first row whose bottom is below `from`, and the first whose top is below `to`.
      let start = lowerBound(tops, from, count) - 1;
      let end = lowerBound(tops, to, count);
      start = Math.max(0, start - OVERSCAN);
      end = Math.min(count, end + OVERSCAN);
      if (end <= start) {
        // Off screen entirely: a small head stays rendered for focus and find-in-page.
        start = 0;
        end = Math.min(count, OVERSCAN);
      }
      setRange((prev) => (prev.start === start && prev.end === end ? prev : { start, end }));
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(update);
    };
    update();
    document.addEventListener('scroll', schedule, { passive: true, capture: true });
    window.addEventListener('resize', schedule);
    return () => {
      if (frame !== 0) cancelAnimationFrame(frame);
      document.removeEventListener('scroll', schedule, { capture: true });
      window.removeEventListener('resize', schedule);
    };
  }, [count, windowed, offsets]);

  useLayoutEffect(
    () => () => {
      observer.current?.disconnect();
      observer.current = null;
      elements.current.clear();
    },
    [],
  );

  const scrollToIndex = useCallback((index: number) => {
    const el = containerRef.current;
    if (!el) return;
    const top = el.getBoundingClientRect().top + window.scrollY + (offsetsRef.current[index] ?? 0);
    window.scrollTo({ top: Math.max(0, top - window.innerHeight / 2) });
  }, []);

  if (!windowed) {
    return { containerRef, start: 0, end: count, padTop: 0, padBottom: 0, nearEnd, measure, scrollToIndex };
  }
  const end = Math.min(range.end, count);
  const start = Math.min(range.start, end);
  const total = offsets[count] ?? 0;
  return {
    containerRef,
    start,
    end,
    padTop: offsets[start] ?? 0,
    padBottom: Math.max(0, total - (offsets[end] ?? total)),
    nearEnd,
    measure,
    scrollToIndex,
  };
}

/** The first index i in 0..count with tops[i] > value (tops ascending), or count when none. */
function lowerBound(tops: Float64Array, value: number, count: number): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tops[mid]! > value) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
