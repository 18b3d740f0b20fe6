import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

/** Open/closed state of the app-wide overlays, so any screen or shortcut can open them. */
export interface UiState {
  searchOpen: boolean;
  createOpen: boolean;
  /** Parent for the Create New Item dialog (null: top level). */
  createParentId: number | null;
  accountSheetOpen: boolean;
  /** Set after a guest signs in: the celebratory overlay (and the upload of their items) shows. */
  celebration: { name: string } | null;
  setSearchOpen: (open: boolean) => void;
  openCreate: (parentId?: number | null) => void;
  setCreateOpen: (open: boolean) => void;
  setAccountSheetOpen: (open: boolean) => void;
  celebrate: (name: string) => void;
  endCelebration: () => void;
}

export const uiStore = createStore<UiState>()((set) => ({
  searchOpen: false,
  createOpen: false,
  createParentId: null,
  accountSheetOpen: false,
  celebration: null,
  setSearchOpen: (searchOpen) => set({ searchOpen }),
  openCreate: (parentId = null) => set({ createOpen: true, createParentId: parentId }),
  setCreateOpen: (createOpen) => set(createOpen ? { createOpen } : { createOpen, createParentId: null }),
  setAccountSheetOpen: (accountSheetOpen) => set({ accountSheetOpen }),
  celebrate: (name) => set({ celebration: { name } }),
  endCelebration: () => set({ celebration: null }),
}));

export function useUi<T>(selector: (s: UiState) => T): T {
  return useStore(uiStore, selector);
}
