import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bearerToken,
  TOKEN_ACCESS,
  TOKEN_DAYS,
  TOKEN_PATTERN,
  TOKEN_SCOPES,
  tokenAllows,
  tokenCreateSchema,
  tokenExpired,
} from './tokens';

describe('personal access token rules', () => {
  it('reads the token of a Bearer header in any case, and nothing from other schemes', () => {
    expect(bearerToken(undefined)).toBeNull();
    expect(bearerToken('Basic dXNlcjpwYXNz')).toBeNull();
    expect(bearerToken('Bearer opk_abc')).toBe('opk_abc');
    expect(bearerToken('bearer   opk_abc  ')).toBe('opk_abc');
    expect(bearerToken('BEARER')).toBe('');
    expect(bearerToken('Bearerx opk_abc')).toBeNull();
  });

  it('never lets `never` through and needs exactly the declared scope otherwise', () => {
    fc.assert(
      fc.property(fc.subarray([...TOKEN_SCOPES]), fc.constantFrom(...TOKEN_ACCESS), (scopes, access) => {
        expect(tokenAllows(scopes, access)).toBe(access !== 'never' && (scopes as string[]).includes(access));
      }),
    );
    expect(tokenAllows(['read', 'write', 'webhooks'], 'never')).toBe(false);
    expect(tokenAllows(['write'], 'read')).toBe(false);
  });

  it('takes a name, a non-empty set of scopes in a fixed order and an expiry of 1 to 365 days (90 unless given)', () => {
    expect(tokenCreateSchema.parse({ name: ' CI ', scopes: ['write', 'read', 'write'] })).toEqual({
      name: 'CI',
      scopes: ['read', 'write'],
      expires_in_days: TOKEN_DAYS.default,
    });
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), (days) => {
        const parsed = tokenCreateSchema.safeParse({ name: 'x', scopes: ['read'], expires_in_days: days });
        expect(parsed.success).toBe(days >= TOKEN_DAYS.min && days <= TOKEN_DAYS.max);
      }),
    );
    for (const bad of [
      { scopes: [] },
      { scopes: ['root'] },
      { name: '' },
      { name: 'x'.repeat(61) },
      { extra: 1 },
    ]) {
      expect(
        tokenCreateSchema.safeParse({ name: 'x', scopes: ['read'], ...bad }).success,
        JSON.stringify(bad),
      ).toBe(false);
    }
  });

  it('recognises the token shape and expiry', () => {
    expect(TOKEN_PATTERN.test(`opk_${'a'.repeat(43)}`)).toBe(true);
    expect(TOKEN_PATTERN.test(`opk_${'a'.repeat(42)}`)).toBe(false);
    const now = new Date('2030-01-01T00:00:00Z');
    expect(tokenExpired({ expires_at: '2030-01-01T00:00:00Z' }, now)).toBe(true);
    expect(tokenExpired({ expires_at: '2030-01-01T00:00:01Z' }, now)).toBe(false);
  });
});
