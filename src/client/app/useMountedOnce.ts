import { useEffect, useState } from 'react';

/**
 * Becomes true the first time `open` is, and then stays: a lazily loaded dialog's code loads on
 * first use (not with the first screen) and keeps its state and close animation afterwards.
 */
export function useMountedOnce(open: boolean): boolean {
  const [mounted, setMounted] = useState(open);
  useEffect(() => {
    if (open) setMounted(true);
  }, [open]);
  return mounted || open;
}
