/**
 * What is typed between Ctrl/Cmd+K and the search dialog's input taking focus. The dialog's code loads
 * on first use; until its input is focused, printable keys would go to the page (or nowhere). They are
 * held here and handed to the dialog when it opens. Small on purpose: it is part of the first screen.
 */
let typed = '';
let capturing = false;
let timer: ReturnType<typeof setTimeout> | undefined;

/** Marks the search input: once it has focus, keys go to it directly. */
export const SEARCH_INPUT_ATTR = 'data-search-input';

function onKey(event: KeyboardEvent) {
  const target = event.target as Element | null;
  if (target?.closest?.(`[${SEARCH_INPUT_ATTR}]`)) return stop();
  if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
  if (event.key === 'Backspace') typed = typed.slice(0, -1);
  else if (event.key.length === 1) typed += event.key;
  else if (event.key !== 'Enter') return;
  // Held for the dialog: the page must not act on it (a focused link would follow Enter).
  event.preventDefault();
  event.stopPropagation();
}

function stop() {
  if (!capturing) return;
  capturing = false;
  clearTimeout(timer);
  window.removeEventListener('keydown', onKey, true);
}

/** Starts holding keys (Ctrl/Cmd+K opened the dialog). Gives up after a few seconds (chunk failed). */
export function startTypeahead(already = ''): void {
  if (capturing || typeof window === 'undefined') return;
  typed = already;
  capturing = true;
  window.addEventListener('keydown', onKey, true);
  timer = setTimeout(stop, 8000);
}

/** Stops holding keys and hands over what was typed (the dialog's input has focus now). */
export function takeTypeahead(): string {
  stop();
  const text = typed;
  typed = '';
  return text;
}

/** Drops what was held (the dialog closed before it opened). */
export function cancelTypeahead(): void {
  stop();
  typed = '';
}

declare global {
  interface Window {
    /** Set by public/theme-init.js: stops its early listener and answers what it held. */
    __outpostEarlyKeys?: () => { open: boolean; typed: string };
  }
}

/**
 * Ctrl/Cmd+K and the keys after it pressed before the app listened (public/theme-init.js holds them
 * from the first byte of the page): whether search was asked for, and what was typed. Once only.
 */
export function takeEarlyKeys(): { open: boolean; typed: string } {
  if (typeof window === 'undefined' || !window.__outpostEarlyKeys) return { open: false, typed: '' };
  const held = window.__outpostEarlyKeys();
  window.__outpostEarlyKeys = undefined;
  return held;
}
