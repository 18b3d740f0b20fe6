import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nameAfterSignIn, PLACEHOLDER_NAME } from './profile';

describe('the name a sign-in leaves stored', () => {
  it('N12: a real name replaces the placeholder; the placeholder or a blank keeps what is stored', () => {
    expect(nameAfterSignIn(PLACEHOLDER_NAME, 'Ada Lovelace')).toBe('Ada Lovelace');
    expect(nameAfterSignIn(PLACEHOLDER_NAME, '  Ada  ')).toBe('Ada');
    expect(nameAfterSignIn(PLACEHOLDER_NAME, PLACEHOLDER_NAME)).toBe(PLACEHOLDER_NAME);
    expect(nameAfterSignIn(PLACEHOLDER_NAME, '   ')).toBe(PLACEHOLDER_NAME);
  });

  it('N12: a name the person chose is never replaced by a sign-in', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((s) => s !== PLACEHOLDER_NAME),
        fc.string(),
        (stored, given) => nameAfterSignIn(stored, given) === stored,
      ),
    );
  });
});
