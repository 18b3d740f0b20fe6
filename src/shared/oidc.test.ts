import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  emailDomainAllowed,
  nameFromClaims,
  OIDC_FAILURES,
  oidcFailureSentence,
  parseEmailDomains,
  safeReturnTo,
} from './oidc';

const origin = 'https://outpost.example';

describe('safeReturnTo', () => {
  it('keeps a path on our own origin, with its query and fragment', () => {
    expect(safeReturnTo('/campaigns/4?tab=board#top', origin)).toBe('/campaigns/4?tab=board#top');
    expect(safeReturnTo('/', origin)).toBe('/');
  });

  it('sends every foreign or odd target to /', () => {
    for (const raw of [
      'https://evil.example/x',
      '//evil.example/x',
      '/\\evil.example',
      '\\\\evil.example',
      '/\tevil',
      'javascript:alert(1)',
      'campaigns',
      '',
      undefined,
      42,
      `/${'a'.repeat(3000)}`,
    ]) {
      expect(safeReturnTo(raw, origin), String(raw)).toBe('/');
    }
  });

  it('never leaves the origin, whatever it is given', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const kept = safeReturnTo(raw, origin);
        expect(kept.startsWith('/')).toBe(true);
        expect(new URL(kept, origin).origin).toBe(origin);
      }),
    );
  });
});

describe('email domains', () => {
  it('reads the list lower-case, without @ or blanks', () => {
    expect(parseEmailDomains(' Example.com, @team.org ,,')).toEqual(['example.com', 'team.org']);
    expect(parseEmailDomains(undefined)).toEqual([]);
  });

  it('allows anyone without a list, and only listed domains with one', () => {
    expect(emailDomainAllowed({}, [])).toBe(true);
    expect(emailDomainAllowed({ email: 'ann@Example.com' }, ['example.com'])).toBe(true);
    expect(emailDomainAllowed({ email: 'ann@example.com', email_verified: true }, ['example.com'])).toBe(
      true,
    );
    expect(emailDomainAllowed({ email: 'ann@evil.com' }, ['example.com'])).toBe(false);
    expect(emailDomainAllowed({ email: 'ann@sub.example.com' }, ['example.com'])).toBe(false);
    expect(emailDomainAllowed({ email: 'ann@example.com', email_verified: false }, ['example.com'])).toBe(
      false,
    );
    expect(emailDomainAllowed({}, ['example.com'])).toBe(false);
  });
});

describe('nameFromClaims', () => {
  it('takes name, else preferred_username, else the email’s local part', () => {
    expect(nameFromClaims({ name: ' Ann Lee ', preferred_username: 'ann' })).toBe('Ann Lee');
    expect(nameFromClaims({ name: '  ', preferred_username: 'ann' })).toBe('ann');
    expect(nameFromClaims({ email: 'ann@example.com' })).toBe('ann');
    expect(nameFromClaims({})).toBeNull();
    expect(nameFromClaims({ name: 'x'.repeat(300) })).toHaveLength(100);
  });
});

describe('failure sentences', () => {
  it('has one for every code and none for anything else', () => {
    for (const code of Object.keys(OIDC_FAILURES)) expect(oidcFailureSentence(code)).toMatch(/\.$/);
    expect(oidcFailureSentence('toString')).toBeNull();
    expect(oidcFailureSentence(null)).toBeNull();
  });
});
