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
}

export interface Toast extends ToastInput {
  id: string;
  duration: number;
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
  return createStore<ToastState>()((set) => ({
    queue: [],
    push: (toast) => {
      counter += 1;
      const id = `toast-${counter}`;
      set((s) => ({ queue: [...s.queue, { ...toast, id, duration: toast.duration ?? TOAST_DURATION_MS }] }));
      return id;
    },
    dismiss: (id) => set((s) => ({ queue: s.queue.filter((t) => t.id !== id) })),
    clear: () => set({ queue: [] }),
  }));
}

/**
 * The app's one toast queue: the page's data layer writes to it (app/dataServices) and so do the
 * shell's services before it has loaded. Screens reach it through the door (app/services: useToast).
 */
export const toastStore = createToastStore();
