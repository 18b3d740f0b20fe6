import { arrayMove } from '@dnd-kit/sortable';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CARD_PITCH, placeInColumn } from './boardPlace';

describe('placeInColumn', () => {
  it('puts a card held over another column before the card its top edge is nearest to', () => {
    expect(placeInColumn(0, 3, null)).toEqual({ index: 0, gap: 0, of: 4 });
    expect(placeInColumn(CARD_PITCH * 1.4, 3, null)).toEqual({ index: 1, gap: 1, of: 4 });
    expect(placeInColumn(CARD_PITCH * 1.6, 3, null)).toEqual({ index: 2, gap: 2, of: 4 });
  });

  it('takes a card held past either end of a column at that end', () => {
    expect(placeInColumn(-500, 3, null).index).toBe(0);
    expect(placeInColumn(CARD_PITCH * 40, 3, null)).toEqual({ index: 3, gap: 3, of: 4 });
    expect(placeInColumn(CARD_PITCH * 40, 3, 0)).toEqual({ index: 2, gap: 3, of: 3 });
  });

  it('puts a card in an empty column first', () => {
    expect(placeInColumn(CARD_PITCH * 5, 0, null)).toEqual({ index: 0, gap: 0, of: 1 });
  });

  it('shows no gap for a card held over its own place, and the gap after the card it passes going down', () => {
    expect(placeInColumn(CARD_PITCH * 2, 5, 2).gap).toBeNull();
    // Down two from the first: after the third card, so before the fourth.
    expect(placeInColumn(CARD_PITCH * 2, 5, 0)).toEqual({ index: 2, gap: 3, of: 5 });
    // Up: before the card it is over.
    expect(placeInColumn(CARD_PITCH, 5, 3)).toEqual({ index: 1, gap: 1, of: 5 });
  });

  it('the gap shown in its own column is where arrayMove puts the card', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.nat(),
        fc.integer({ min: -200, max: 3000 }),
        (count, f, y) => {
          const from = f % count;
          const { index, gap } = placeInColumn(y, count, from);
          const cards = [...Array(count).keys()];
          const moved = arrayMove(cards, from, index);
          if (gap === null) expect(moved).toEqual(cards);
          else {
            // The card goes in before the card that was at `gap` (or last), as the marker shows.
            const without = cards.filter((c) => c !== from);
            const before = cards[gap];
            const at = before === undefined ? without.length : without.indexOf(before);
            expect(moved.indexOf(from)).toBe(at);
          }
        },
      ),
    );
  });
});
