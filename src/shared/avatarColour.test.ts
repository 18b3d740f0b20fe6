import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { avatarColour, avatarHue } from './avatarColour';

/** The smallest distance between any two hues on the circle. */
function closest(hues: number[]): number {
  let best = 360;
  for (const [i, a] of hues.entries())
    for (const b of hues.slice(i + 1)) best = Math.min(best, Math.abs(a - b), 360 - Math.abs(a - b));
  return best;
}

describe('avatar colours from user ids', () => {
  it('gives any eight consecutive people hues at least 20° apart (distinct at a glance)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), (first) => {
        const hues = Array.from({ length: 8 }, (_, k) => avatarHue(first + k));
        return closest(hues) >= 20;
      }),
    );
  });

  it('is a pure function of the id, a valid hue, and differs for ids that a name hash confused', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2_147_483_647 }), (id) => {
        const hue = avatarHue(id);
        return hue >= 0 && hue < 360 && avatarColour(id) === `oklch(0.48 0.13 ${hue})`;
      }),
    );
    expect(avatarColour(7)).not.toBe(avatarColour(13));
    // An id whose hue rounds up to a full turn (6244: 359.96…) reads 0, not 360.
    expect(avatarHue(6244)).toBe(0);
    expect(avatarColour(1)).toMatch(/^oklch\(0\.48 0\.13 [\d.]+\)$/);
  });
});
