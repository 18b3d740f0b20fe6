// @vitest-environment jsdom
import { render, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ROW_GAP, TIMELINE_WINDOW_FROM, useTimelineWindow } from './useTimelineWindow';

const keysOf = (n: number) => Array.from({ length: n }, (_, i) => `k${i}`);
const estimate = () => 40;

let seen: ReturnType<typeof useTimelineWindow> | null = null;

/** A list whose container is in the document, so the window is measured against jsdom's viewport. */
function List({ keys }: { keys: string[] }) {
  const timeline = useTimelineWindow(keys, estimate, true);
  seen = timeline;
  return <div ref={timeline.containerRef} />;
}

describe('useTimelineWindow', () => {
  it('renders a long timeline only near the viewport, standing empty space in for the rest', () => {
    render(<List keys={keysOf(1_000)} />);
    const { start, end, padTop, padBottom } = seen!;
    expect(start).toBe(0);
    // jsdom's viewport (768 px, the list at its top) holds about 16 rows of 48 px, plus the overscan.
    expect(end).toBeGreaterThan(10);
    expect(end).toBeLessThan(40);
    expect(padTop).toBe(0);
    expect(padBottom).toBe((1_000 - end) * (40 + ROW_GAP));
  });

  it('renders a short timeline whole', () => {
    const keys = keysOf(TIMELINE_WINDOW_FROM);
    const { result } = renderHook(() => useTimelineWindow(keys, estimate, false));
    expect(result.current).toMatchObject({ start: 0, end: TIMELINE_WINDOW_FROM, padTop: 0, padBottom: 0 });
  });

  it("replaces a row's estimate with its measured height", () => {
    const keys = keysOf(100);
    const { result, rerender } = renderHook(() => useTimelineWindow(keys, estimate, true));
    const before = result.current.padBottom;
    const el = document.createElement('li');
    Object.defineProperty(el, 'offsetHeight', { value: 140 });
    // A row far below the window: measured once, its 100 extra pixels show in the space below.
    result.current.measure('k90', el);
    rerender();
    expect(result.current.padBottom).toBe(before + 100);
  });
});
