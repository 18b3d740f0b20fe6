/** Undo and the trash (ARCHITECTURE §5): the handlers over ../items/undoStack. */
import type { TrashView } from '../items/undoStack';
import { defineCommands } from './map';

export const commands = defineCommands({
  /** The newest undoable change's number (a toast's Undo takes back that one), or null. */
  'undo.latest': async (c) => (await (await c.undo()).latest())?.seq ?? null,
  /** Takes back one change (the newest without a number); answers its label, or null when none. */
  'undo.takeBack': async (c, seq?: number) => (await (await c.undo()).undo(seq))?.label ?? null,
});

export const trashCommands = defineCommands({
  /** This device's deletes and, signed in and online, the server's. */
  'trash.list': async (c) => (await c.undo()).list(),
  'trash.restore': async (c, entry: TrashView) => (await c.undo()).restoreEntry(entry),
});
