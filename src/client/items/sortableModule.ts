import { useEffect, useState } from 'react';

type SortableModule = typeof import('./SortableItems');

let loaded: SortableModule | null = null;
let loading: Promise<SortableModule> | null = null;

/**
 * Starts loading drag and drop, once. The pages that reorder call it as their own chunk loads, so the
 * module is there by the time their rows are read: rows first drawn without it would be drawn again
 * with it, and a row menu opened in between would close under the pointer.
 */
export function preloadSortable(): Promise<SortableModule> {
  loading ??= import('./SortableItems').then((module) => {
    loaded = module;
    return module;
  });
  return loading;
}

/** The drag and drop module when `wanted`, or null while it loads (or when not wanted). */
export function useSortableModule(wanted: boolean): SortableModule | null {
  const [module, setModule] = useState<SortableModule | null>(loaded);
  useEffect(() => {
    if (!wanted || module) return;
    let live = true;
    void preloadSortable().then((m) => {
      if (live) setModule(m);
    });
    return () => {
      live = false;
    };
  }, [wanted, module]);
  return wanted ? (module ?? loaded) : null;
}
