import { describe, expect, it } from 'vitest';
import { ITEM_CHILDREN } from '../../shared/itemChildren';
import { decodeCursor, encodeCursor } from './cursor';

describe('the sync cursor', () => {
  it('K30: reads back a position among the items or among any declared child kind, since or not', () => {
    const positions = [
      { xid: 123_456n, id: 42 },
      { xid: 99n, id: 7, since: 120n },
      ...ITEM_CHILDREN.map((_, n) => ({ xid: 500n, id: 9, child: n + 1 })),
      ...ITEM_CHILDREN.map((_, n) => ({ xid: 500n, id: 9, child: n + 1, since: 600n })),
    ];
    for (const position of positions) expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  it('K13, X5: keeps the marks cursors were given out with (a comment’s _, a time entry’s ~)', () => {
    expect(decodeCursor('c1.2s._9')).toEqual({ xid: 100n, id: 9, child: 1 });
    expect(decodeCursor('c1.2s.~9')).toEqual({ xid: 100n, id: 9, child: 2 });
  });

  it('refuses a mark no kind declares and numbers past the database’s', () => {
    expect(decodeCursor('c1.2s.!9')).toBeNull();
    expect(decodeCursor('c1.2s..9')).toBeNull();
    expect(decodeCursor('c1.zzzzzzzzzzzzzz.1')).toBeNull();
    expect(decodeCursor('')).toEqual({ xid: 0n, id: 0 });
  });
});
