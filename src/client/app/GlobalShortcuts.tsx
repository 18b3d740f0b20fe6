import { useEffect } from 'react';
import { createStore } from 'zustand/vanilla';
import { cancelTypeahead, startTypeahead } from '../search/typeahead';
import { uiStore } from '../stores/uiStore';
import { pageDoor } from './door';

/** Whether the keyboard shortcut help ('?') is open. */
export const shortcutHelpStore = createStore<{ open: boolean }>()(() => ({ open: false }));
export const setShortcutHelpOpen = (open: boolean) => shortcutHelpStore.setState({ open });

/** True where a key types text (or a widget of its own uses the key), so '?' must not open help. */
function typesText(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.closest !== 'function') return false;
  return (
    el.isContentEditable ||
    el.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]') !== null
  );
}

/**
 * Ctrl or Cmd + K anywhere toggles the search dialog; '?' outside text fields opens the shortcut help;
 * Ctrl or Cmd + Z outside text fields undoes the newest change.
 */
export function useGlobalShortcuts(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        const ui = uiStore.getState();
        const open = !ui.searchOpen;
        // Keys typed while the dialog's code loads are held and handed to its input.
        if (open) startTypeahead();
        else cancelTypeahead();
        ui.setSearchOpen(open);
        return;
      }
      // Ctrl/Cmd+Z outside a text field takes back the newest change; presses in a row walk back.
      if (
        (event.metaKey || event.ctrlKey) &&
        !event.altKey &&
        !event.shiftKey &&
        event.key.toLowerCase() === 'z' &&
        !event.defaultPrevented &&
        !typesText(event.target)
      ) {
        event.preventDefault();
        void import('../items/mutations').then(({ undoChange }) => {
          const door = pageDoor();
          return undoChange(door.send, door.toasts.getState().push);
        });
        return;
      }
      if (
        event.key === '?' &&
        !event.ctrlKey &&
        !event.metaKey &&
        !event.altKey &&
        !event.defaultPrevented &&
        !typesText(event.target) &&
        !uiStore.getState().searchOpen
      ) {
        event.preventDefault();
        setShortcutHelpOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
