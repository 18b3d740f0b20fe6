import type { KeyboardEvent } from 'react';

/** Ctrl/Cmd+Enter outside an IME composition: the app's 'submit this form from any field' shortcut. */
export function isSubmitShortcut(event: KeyboardEvent): boolean {
  return event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.nativeEvent.isComposing;
}
