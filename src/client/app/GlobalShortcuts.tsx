import { useEffect } from 'react';
import { createStore } from 'zustand/vanilla';
import { cancelTypeahead, startTypeahead, takeEarlyKeys } from '../search/typeahead';
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

/** The first shown element matching `selector` inside the page's main area. */
function firstShown(selector: string): HTMLElement | null {
  const found = document.querySelectorAll<HTMLElement>(`main ${selector}`);
  return [...found].find((el) => el.getClientRects().length > 0) ?? null;
}

/**
 * The row `step` rows from the one holding `from` among the page's shown rows; the first row when
 * `from` is in none; null when there is none to go to.
 */
function rowAfter(from: EventTarget | null, step: 1 | -1): HTMLElement | null {
  const rows = [...document.querySelectorAll<HTMLElement>('main [data-item-id]')].filter(
    (el) => el.getClientRects().length > 0,
  );
  const current = (from as HTMLElement | null)?.closest?.<HTMLElement>('[data-item-id]') ?? null;
  const at = current ? rows.indexOf(current) : -1;
  if (at < 0) return rows[0] ?? null;
  return rows[at + step] ?? null;
}

/** Focus to a row: itself when it is a roving tab stop, else its title (a link or the rename button). */
function focusRow(row: HTMLElement): void {
  if (row.hasAttribute('tabindex')) row.focus();
  else (row.querySelector<HTMLElement>('[data-row-title] a[href], [data-row-title] button') ?? row).focus();
}

/** Whether a dialog, menu or sheet is open: single-key shortcuts then belong to it. */
function overlayOpen(): boolean {
  return document.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"]') !== null;
}

/**
 * Ctrl or Cmd + K anywhere toggles the search dialog; '?' outside text fields opens the shortcut help;
 * Ctrl or Cmd + Z outside text fields undoes the newest change; 'q' outside text fields goes to the
 * page's quick add (Todoist's key); J or K with no row focused goes to the first row of the list.
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
      const plainKey =
        !event.ctrlKey &&
        !event.metaKey &&
        !event.altKey &&
        !event.shiftKey &&
        !event.defaultPrevented &&
        !typesText(event.target) &&
        !overlayOpen();
      if (plainKey && event.key === 'q') {
        const title = firstShown('[data-quick-add-title]');
        if (title) {
          event.preventDefault();
          title.focus();
        }
        return;
      }
      // A list with a roving tab stop handles J and K in its rows itself (ItemList, which takes the
      // key); anywhere else on the page (Today's lists, a sortable list's grip, no row focused) they
      // go to the next or previous row, the first with none (issue 50: they did nothing on a campaign's,
      // a task's and Today's page, whose rows sit deeper than Home's).
      if (plainKey && (event.key === 'j' || event.key === 'k')) {
        const next = rowAfter(event.target, event.key === 'j' ? 1 : -1);
        if (next) {
          event.preventDefault();
          focusRow(next);
        }
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
    // Search asked for while the page was still loading opens now, with what was typed since (P16).
    const early = takeEarlyKeys();
    if (early.open) {
      startTypeahead(early.typed);
      uiStore.getState().setSearchOpen(true);
    }
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
