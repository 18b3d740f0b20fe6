/** Undo and the trash (ARCHITECTURE §5): the handlers over ../items/undoStack. */
import type { TrashView, UndoStack } from '../items/undoStack';
import type { Lazy } from '../lazy';
import { defineCommands } from './map';

/** Undo and the trash use the undo stack alone (loaded on first use). */
export interface UndoContext {
  undo: Lazy<UndoStack>;
}

export const commands = defineCommands<UndoContext>()({
  /** The newest undoable change's number (a toast's Undo takes back that one), or null. */
  'undo.latest': async (c) => (await (await c.undo()).latest())?.seq ?? null,
  /** Takes back one change (the newest without a number); answers its label, or null when none. */
  'undo.takeBack': async (c, seq?: number) => (await (await c.undo()).undo(seq))?.label ?? null,
});

export const trashCommands = defineCommands<UndoContext>()({
  /** This device's deletes and, signed in and online, the server's. */
  'trash.list': async (c) => (await c.undo()).list(),
  'trash.restore': async (c, entry: TrashView) => (await c.undo()).restoreEntry(entry),
});
