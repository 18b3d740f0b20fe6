import { describe, expect, it } from 'vitest';
import { orderAnnouncements } from './SortableItems';

const rows = [
  { id: 1, title: 'Call the plumber' },
  { id: 2, title: 'Water the ferns' },
  { id: 3, title: 'Pay rent' },
];
// dnd-kit hands the announcements its active and over nodes; only their ids are read.
const node = (id: number) => ({ id }) as never;

describe('drag announcements', () => {
  it('say the place in plain words with the title', () => {
    const said = orderAnnouncements(rows);
    expect(said.onDragStart({ active: node(2) })).toBe('Picked up “Water the ferns”, at 2 of 3.');
    expect(said.onDragOver({ active: node(2), over: node(1) })).toBe(
      '“Water the ferns” is over place 1 of 3.',
    );
    expect(said.onDragEnd({ active: node(2), over: node(1) })).toBe('“Water the ferns” dropped at 1 of 3.');
    expect(said.onDragCancel({ active: node(2), over: null })).toBe(
      'Move cancelled. “Water the ferns” is back at 2 of 3.',
    );
  });

  it('O6: add what a drop on Today would change besides the place (its new priority)', () => {
    const said = orderAnnouncements(rows, (id, to) => (id === 3 && to === 0 ? 'p1' : null));
    expect(said.onDragOver({ active: node(3), over: node(1) })).toBe(
      '“Pay rent” is over place 1 of 3, and would be p1.',
    );
    expect(said.onDragEnd({ active: node(3), over: node(1) })).toBe('“Pay rent” dropped at 1 of 3, now p1.');
    expect(said.onDragEnd({ active: node(3), over: node(2) })).toBe('“Pay rent” dropped at 2 of 3.');
  });
});
