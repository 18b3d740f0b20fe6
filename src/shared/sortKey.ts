import { generateNKeysBetween } from 'fractional-indexing';
import { generateKeyBetween as jitteredKeyBetween } from 'jittered-fractional-indexing';

/**
 * Manual order (ARCHITECTURE §5 'Order'): `sort_key` is a fractional index, a base-62 string compared
 * by code unit, so a move writes one key between its new neighbours and nothing else changes. Keys
 * carry random jitter: two devices inserting between the same neighbours offline (tldraw saw it
 * "frequently enough in production") still get different keys. Ties (equal keys) fall back to uuid.
 */

export const SORT_KEY_MAX_LENGTH = 64;
/** What a sort_key may hold (POST and PATCH refuse anything else). */
export const SORT_KEY_PATTERN = /^[0-9A-Za-z]{1,64}$/;

/**
 * Bits of jitter a key gets: about three base-62 characters. Two devices inserting at the same place
 * collide once in 65,536, and a tie is still ordered (by uuid), only not as either meant.
 */
export const JITTER_BITS = 16;

export type RandomBit = () => boolean;
const randomBit: RandomBit = () => Math.random() < 0.5;

/** A key strictly between `before` and `after` (null: the start or the end of the list), jittered. */
export function keyBetween(
  before: string | null,
  after: string | null,
  random: RandomBit = randomBit,
): string {
  if (before !== null && after !== null && before >= after)
    throw new Error(`No key between ${before} and ${after}: they are not in order`);
  return jitteredKeyBetween(before, after, { jitterBits: JITTER_BITS, getRandomBit: random });
}

/** Keys for `n` new items after `last` (an import, a batch), short and in order, without jitter. */
export function keysAfter(last: string | null, n: number): string[] {
  return generateNKeysBetween(last, null, n);
}

/**
 * Whether a key of the right characters is also a fractional index (an integer part whose first
 * character gives its length, then a fraction not ending in 0): a list holding another kind of key
 * could never have a key after it, so the next create in it would fail.
 */
export function isFractionalKey(key: string): boolean {
  try {
    generateNKeysBetween(key, null, 1);
    return true;
  } catch {
    return false;
  }
}

/**
 * The key that puts an item at `index` of `keys` (the list's keys in order, without the item itself):
 * between the key before that place and the next key after it that is greater (equal keys, a rare
 * collision, are stepped over so a key always exists).
 */
export function keyForPlace(keys: readonly string[], index: number, random: RandomBit = randomBit): string {
  const at = Math.max(0, Math.min(index, keys.length));
  const before = at > 0 ? (keys[at - 1] as string) : null;
  let next = at;
  while (next < keys.length && before !== null && (keys[next] as string) <= before) next++;
  const after = next < keys.length ? (keys[next] as string) : null;
  return keyBetween(before, after, random);
}

/** A place in a list: one new key, or (rarely) fresh keys for the whole list with the item in it. */
export type Placement = { key: string } | { rekey: string[] };

/**
 * Where an item goes at `index` of `keys` (the list's keys in order, without it). Inserting again and
 * again into the same gap lengthens keys by about a bit each time; past SORT_KEY_MAX_LENGTH the
 * list is given fresh, evenly spread keys instead (`rekey`, one per place, the new item's at
 * `index`): a rare write of many rows that keeps every key short.
 */
export function placeInList(
  keys: readonly string[],
  index: number,
  random: RandomBit = randomBit,
): Placement {
  const key = keyForPlace(keys, index, random);
  if (key.length <= SORT_KEY_MAX_LENGTH) return { key };
  return { rekey: generateNKeysBetween(null, null, keys.length + 1) };
}
