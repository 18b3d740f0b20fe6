import { useEffect } from 'react';
import { resolvesToDark, type Theme, themeStore } from '../stores/themeStore';

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** Puts the resolved theme on <html> as the `dark` class, which the styles key off. */
export function applyTheme(theme: Theme, systemPrefersDark: boolean): void {
  const dark = resolvesToDark(theme, systemPrefersDark);
  const root = document.documentElement;
  root.classList.toggle('dark', dark);
  // The browser's own chrome (the phone's status bar) follows the app's choice, not only the OS.
  for (const meta of document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')) {
    meta.content = dark ? '#09090b' : '#ffffff';
  }
}

/** Keeps <html> in step with the chosen theme and, for System, with the OS as it changes. */
export function useThemeSync(): void {
  useEffect(() => {
    const query = window.matchMedia(DARK_QUERY);
    const update = () => applyTheme(themeStore.getState().theme, query.matches);
    update();
    query.addEventListener('change', update);
    const unsubscribe = themeStore.subscribe(update);
    return () => {
      query.removeEventListener('change', update);
      unsubscribe();
    };
  }, []);
}
