import { useEffect } from 'react';
import { uiStore } from '../stores/uiStore';

/** Ctrl or Cmd + K anywhere toggles the search dialog. */
export function useGlobalShortcuts(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        const ui = uiStore.getState();
        ui.setSearchOpen(!ui.searchOpen);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
