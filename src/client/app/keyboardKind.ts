/** How the person most likely types, for the key hints a screen shows. */
export type KeyboardKind = 'touch' | 'apple' | 'other';

/** A touch screen (no keys to name), an Apple keyboard (Cmd) or any other (Ctrl). */
export function keyboardKindOf({
  platform,
  coarsePointer,
}: {
  platform: string;
  coarsePointer: boolean;
}): KeyboardKind {
  // The primary pointer, not any touch support: a touch laptop still has its keyboard.
  if (coarsePointer) return 'touch';
  return /Mac|iPhone|iPad|iPod/.test(platform) ? 'apple' : 'other';
}

/** This browser's keyboard kind (jsdom and old browsers without matchMedia count as a keyboard). */
export function keyboardKind(): KeyboardKind {
  if (typeof window === 'undefined') return 'other';
  const coarsePointer =
    typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches;
  return keyboardKindOf({ platform: window.navigator.platform ?? '', coarsePointer });
}
