import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];

/**
 * Stored as a bare string (not zustand's JSON envelope) so that public/theme-init.js can read it
 * before the first paint without parsing anything.
 */
export const THEME_STORAGE_KEY = 'outpost-theme';

function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

function readStoredTheme(): Theme {
  try {
    const value = globalThis.localStorage?.getItem(THEME_STORAGE_KEY);
    return isTheme(value) ? value : 'system';
  } catch {
    // Storage can throw in private modes; the default is the spec's.
    return 'system';
  }
}

export interface ThemeState {
  theme: Theme;
  setTheme: (theme: Theme) => void;
}

export const themeStore = createStore<ThemeState>()((set) => ({
  theme: readStoredTheme(),
  setTheme: (theme) => {
    try {
      globalThis.localStorage?.setItem(THEME_STORAGE_KEY, theme);
    } catch {
      // Not persisted, still applied for this visit.
    }
    set({ theme });
  },
}));

export function useTheme<T>(selector: (s: ThemeState) => T): T {
  return useStore(themeStore, selector);
}

/** Whether the theme resolves to dark given what the OS prefers. */
export function resolvesToDark(theme: Theme, systemPrefersDark: boolean): boolean {
  return theme === 'dark' || (theme === 'system' && systemPrefersDark);
}
