import { describe, expect, it } from 'vitest';
import { type Box, placeToast, usualPlace } from './toastPlacement';

const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };
const box = (left: number, top: number, right: number, bottom: number): Box => ({ left, top, right, bottom });

describe('where a toast goes', () => {
  it('keeps the usual corner when nothing is in the way', () => {
    expect(placeToast(desktop, [])).toBe('bottom-right');
    expect(placeToast(phone, [])).toBe('top');
  });

  it('puts the plain toast where the region puts one with nothing in the way', () => {
    for (const width of [320, 390, 767, 768, 1024, 1280, 1920])
      expect(usualPlace(width)).toBe(placeToast({ width, height: 800 }, []));
  });

  it("moves off a quick-add card whose 'Add todo' sits at the bottom right of a desktop screen", () => {
    expect(placeToast(desktop, [box(224, 560, 1056, 700)])).toBe('top-right');
  });

  it('goes to the bottom left when both right corners are taken', () => {
    expect(placeToast(desktop, [box(224, 40, 1056, 120), box(900, 600, 1200, 700)])).toBe('bottom-left');
  });

  it("on a phone, drops below a card at the top of the screen, clear of the bar's buttons", () => {
    expect(placeToast(phone, [box(16, 120, 374, 260)])).toBe('bottom');
  });

  it('keeps the usual place when every place is covered', () => {
    expect(placeToast(phone, [box(0, 0, 390, 844)])).toBe('top');
    expect(placeToast(desktop, [box(0, 0, 1280, 800)])).toBe('bottom-right');
  });
});
