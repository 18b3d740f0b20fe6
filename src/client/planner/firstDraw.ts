import { useEffect, useState } from 'react';
import { ITEM_ROW_HEIGHT } from '../items/ItemRow';

/**
 * How many rows a screen's first draw holds: the screen is drawn at first with a screenful of rows
 * (every row is ITEM_ROW_HEIGHT tall, the viewport's height is the most that can show), and with all
 * of them a frame after that first draw has been painted. Upcoming's fifteen groups read up to eight
 * rows each, Today's two up to thirty: drawing them all before the first row showed was most of what
 * those screens' first row cost. The rows drawn later are only added below: none is drawn again.
 * `ready`: the screen has its rows (until then nothing is counted). Infinity once all are drawn.
 */
export function useFirstDrawRows(ready: boolean): number {
  const [rows, setRows] = useState(() => Math.ceil((window.innerHeight || 800) / ITEM_ROW_HEIGHT) + 1);
  useEffect(() => {
    if (!ready || rows === Infinity) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // After the frame's paint: a timer set from the frame's callback runs once it has been drawn.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setRows(Infinity));
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [ready, rows]);
  return rows;
}

/**
 * Shares a first draw's `rows` among groups of `lengths` rows, in order: each draws as many of its rows
 * as are left, and takes at least one line (its heading) even when empty. null: not drawn yet.
 */
export function shareRows(lengths: readonly number[], rows: number): (number | null)[] {
  let left = rows;
  return lengths.map((length) => {
    if (left <= 0) return null;
    const drawn = Math.min(length, left);
    left -= Math.max(1, drawn);
    return drawn;
  });
}
