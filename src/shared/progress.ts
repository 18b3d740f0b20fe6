/** Completion figures for a parent: rounded percent and how many remain. */
export function progressOf(total: number, completed: number): { percent: number; remaining: number } {
  if (total <= 0) return { percent: 0, remaining: 0 };
  const done = Math.min(Math.max(completed, 0), total);
  return { percent: Math.round((done / total) * 100), remaining: total - done };
}
