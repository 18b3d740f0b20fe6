import { createStore } from 'zustand/vanilla';

export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;

export interface ToastAction {
  label: string;
  onClick: () => void;
}

export interface ToastInput {
  title: string;
  description?: string;
  action?: ToastAction;
  variant?: 'default' | 'destructive';
  duration?: number;
  /**
   * A toast pushed with the key of one still queued replaces it in place (same id, so it stays on
   * screen and its timer restarts) instead of queueing another: quick-adds in a row.
   */
  key?: string;
}

export interface Toast extends ToastInput {
  id: string;
  duration: number;
  /** How many times a keyed toast was replaced in place; 0 for a new one. */
  revision: number;
}

export interface ToastState {
  /** Waiting toasts, oldest first; the UI shows `queue[0]` only (one at a time). */
  queue: Toast[];
  push: (toast: ToastInput) => string;
  dismiss: (id: string) => void;
  clear: () => void;
}

export type ToastStore = ReturnType<typeof createToastStore>;

/** A tiny toast queue: one toast shows at a time, the rest wait their turn. */
export function createToastStore() {
  let counter = 0;
  return createStore<ToastState>()((set, get) => ({
    queue: [],
    push: (toast) => {
      const duration = toast.duration ?? TOAST_DURATION_MS;
      const existing = toast.key === undefined ? undefined : get().queue.find((t) => t.key === toast.key);
      if (existing) {
        const replaced: Toast = { ...toast, id: existing.id, duration, revision: existing.revision + 1 };
        set((s) => ({ queue: s.queue.map((t) => (t.id === existing.id ? replaced : t)) }));
        return existing.id;
      }
      counter += 1;
      const id = `toast-${counter}`;
      set((s) => ({ queue: [...s.queue, { ...toast, id, duration, revision: 0 }] }));
      return id;
    },
    dismiss: (id) => set((s) => ({ queue: s.queue.filter((t) => t.id !== id) })),
    clear: () => set({ queue: [] }),
  }));
}

/**
 * The app's one toast queue: the page's data layer writes to it (data/page.ts) and so do the
 * shell's services before it has loaded. Screens reach it through the door (app/door: useToast).
 */
export const toastStore = createToastStore();
