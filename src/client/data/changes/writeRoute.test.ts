import { describe, expect, it } from 'vitest';
import { localItem } from '../../../../testkit/client/items';
import { changeFactsOf, chooseWriteRoute, type WriteFacts, type WriteRoute } from './writeRoute';

/** An edit in place of one row inside the write's Dexie transaction, with Dexie's internals usable. */
const inTransaction: WriteFacts = {
  internals: true,
  transaction: 'holdsStores',
  rows: 1,
  removed: 0,
  inPlace: true,
  guestHistory: false,
  fromGuess: false,
};
/** The same edit made from the tab's guess, before any transaction. */
const fromGuess: WriteFacts = { ...inTransaction, transaction: 'none', fromGuess: true };

const table: [kind: string, facts: WriteFacts, route: WriteRoute][] = [
  ['a create (no stored row replaced)', { ...inTransaction, inPlace: false }, 'dexie'],
  ['a title edit in its transaction', inTransaction, 'rawInTransaction'],
  ['a title edit from the guess (W9)', fromGuess, 'ownRawTransaction'],
  ['a move among the same siblings (an order key)', inTransaction, 'rawInTransaction'],
  ['a move to another parent (counters move)', { ...inTransaction, inPlace: false }, 'dexie'],
  ['a status change alone (a counter moves)', { ...inTransaction, inPlace: false }, 'dexie'],
  ['a status change with its roll-up (several rows)', { ...inTransaction, rows: 3 }, 'dexie'],
  ['a delete (the row flagged deleted: counters move)', { ...inTransaction, inPlace: false }, 'dexie'],
  ["a guest's delete (the row removed)", { ...inTransaction, rows: 0, removed: 1 }, 'dexie'],
  ['a temporary id swapped for the server one', { ...inTransaction, rows: 1, removed: 1 }, 'dexie'],
  [
    "a guest's title edit, its history beside it",
    { ...inTransaction, guestHistory: true },
    'rawInTransaction',
  ],
  ["a guest's title edit from the guess", { ...fromGuess, guestHistory: true }, 'dexie'],
  [
    'an edit of a temporary id (resolved in the transaction)',
    { ...fromGuess, transaction: 'holdsStores', fromGuess: false },
    'rawInTransaction',
  ],
  ['an edit from the guess inside another transaction', { ...fromGuess, transaction: 'other' }, 'dexie'],
  ['an edit in a transaction without the stores', { ...inTransaction, transaction: 'other' }, 'dexie'],
  ['a pulled page (many rows)', { ...inTransaction, rows: 50, inPlace: false }, 'dexie'],
  ['a comment or undo-only write (no item rows)', { ...inTransaction, rows: 0, inPlace: false }, 'dexie'],
  ['a title edit on plain Dexie', { ...inTransaction, internals: false }, 'dexie'],
  ['a title edit from the guess on plain Dexie', { ...fromGuess, internals: false }, 'dexie'],
];

describe('the route of a local write (chooseWriteRoute)', () => {
  it.each(table)('%s: %s', (_kind, facts, route) => {
    expect(chooseWriteRoute(facts)).toBe(route);
  });

  it('I13: takes no faster route without Dexie internals, whatever the change', () => {
    for (const [, facts] of table) expect(chooseWriteRoute({ ...facts, internals: false })).toBe('dexie');
  });

  it("reads a change given as rows alone: what it puts and removes, and a guest's history beside it", () => {
    const synced = localItem(1, 'Synced');
    const guest = localItem(2, 'Guest', { _syncStatus: 'local' });
    expect(changeFactsOf([synced], [], true)).toEqual({
      rows: 1,
      removed: 0,
      guestHistory: false,
      fromGuess: false,
    });
    expect(changeFactsOf([guest], [], false, true)).toMatchObject({ guestHistory: true, fromGuess: true });
    // A guest's delete removes rows and queues nothing; a temporary id's swap removes and queues.
    expect(changeFactsOf([], [3], false)).toMatchObject({ removed: 1, guestHistory: true });
    expect(changeFactsOf([synced], [3], true)).toMatchObject({ rows: 1, removed: 1, guestHistory: false });
  });
});
