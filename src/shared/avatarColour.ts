/**
 * A person's avatar colour from their user id (issue 50: two people got the same colour from a hash
 * of their names over six colours). Consecutive ids step round the hue circle by the golden angle,
 * so any few people in one campaign get hues far apart; OKLCH at lightness 0.48 keeps white initials
 * above 4.5:1 (AA) at every hue.
 */

/** The golden angle in degrees: each next id lands in the widest gap left on the circle. */
const GOLDEN_ANGLE = 137.508;

/** The hue (0–360) of a person's avatar: a pure function of their user id. */
export function avatarHue(userId: number): number {
  const hue = (Math.abs(Math.trunc(userId)) * GOLDEN_ANGLE) % 360;
  // Rounded to a tenth, 359.96 would read 360: wrap it back to 0.
  return (Math.round(hue * 10) / 10) % 360;
}

/** The CSS colour of a person's avatar (white text on it passes AA). */
export function avatarColour(userId: number): string {
  return `oklch(0.48 0.13 ${avatarHue(userId)})`;
}
