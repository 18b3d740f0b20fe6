import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readReplyLocalPart, replyLocalPart } from './replyAddress';

describe('reply addresses', () => {
  const key = randomBytes(32);

  it('reads back the person and item it was made for, whatever the ids', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 32 - 1 }),
        fc.integer({ min: 1, max: 2 ** 32 - 1 }),
        (userId, itemId) => {
          const local = replyLocalPart(key, userId, itemId);
          expect(local).toMatch(/^r-[a-z2-7]{32}$/);
          expect(readReplyLocalPart(key, local)).toEqual({ userId, itemId });
          expect(readReplyLocalPart(key, local.toUpperCase())).toEqual({ userId, itemId });
        },
      ),
    );
  });

  it('refuses an address changed in any one character, or made with another key', () => {
    const local = replyLocalPart(key, 7, 42);
    for (let i = 2; i < local.length; i++) {
      const swapped = local[i] === 'a' ? 'b' : 'a';
      expect(readReplyLocalPart(key, local.slice(0, i) + swapped + local.slice(i + 1))).toBeNull();
    }
    expect(readReplyLocalPart(randomBytes(32), local)).toBeNull();
    expect(readReplyLocalPart(key, 'c-abc')).toBeNull();
  });
});
