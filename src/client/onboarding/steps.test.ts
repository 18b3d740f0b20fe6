import { describe, expect, it } from 'vitest';
import {
  canGoNext,
  countedSteps,
  NOTICES,
  progressOf,
  sanitizeCode,
  stepsFor,
  validateCode,
  validatePhone,
} from './steps';

const inputs = { choice: null, phone: '', code: '', busy: false } as const;

describe('onboarding step sets', () => {
  it('shows the intro and the offline steps before a choice', () => {
    expect(stepsFor(null)).toEqual(['welcome', 'account', 'my-work', 'tasks', 'offline', 'mobile']);
  });

  it('shows phone, code, contacts and the collaboration tour after Sign In', () => {
    expect(stepsFor('sign-in')).toEqual([
      'welcome',
      'account',
      'phone',
      'code',
      'contacts',
      'my-work',
      'tasks',
      'collaboration',
      'mobile',
    ]);
  });

  it('shows welcome then the offline steps after Continue Without Account', () => {
    expect(stepsFor('local').filter((s) => s !== 'account')).toEqual([
      'welcome',
      'my-work',
      'tasks',
      'offline',
      'mobile',
    ]);
  });

  it('does not ask a signed-in user to sign in again', () => {
    expect(stepsFor(null, true)).toEqual(['welcome', 'my-work', 'tasks', 'collaboration', 'mobile']);
  });
});

describe('onboarding Next', () => {
  it('stays disabled on the account prompt until a choice is picked', () => {
    expect(canGoNext('account', inputs)).toBe(false);
    expect(canGoNext('account', { ...inputs, choice: 'local' })).toBe(true);
    expect(canGoNext('account', { ...inputs, choice: 'sign-in' })).toBe(true);
  });

  it('needs six digits on the code step and is off while busy', () => {
    expect(canGoNext('code', { ...inputs, code: '12345' })).toBe(false);
    expect(canGoNext('code', { ...inputs, code: '123456' })).toBe(true);
    expect(canGoNext('welcome', { ...inputs, busy: true })).toBe(false);
  });
});

describe('onboarding validation', () => {
  it('rejects a phone shorter than 10 characters', () => {
    expect(validatePhone('')).toEqual(NOTICES.invalidPhone);
    expect(validatePhone('555123456')).toEqual(NOTICES.invalidPhone);
    expect(validatePhone('5551234567')).toBeNull();
    expect(validatePhone('+15551234567')).toBeNull();
  });

  it('accepts only the six-digit test code', () => {
    expect(validateCode('123456')).toBeNull();
    expect(validateCode('654321')).toEqual(NOTICES.invalidCode);
    expect(validateCode('12345')).toEqual(NOTICES.invalidCode);
    expect(validateCode('abcdef')).toEqual(NOTICES.invalidCode);
  });

  it('keeps only digits in the code field', () => {
    expect(sanitizeCode('12a3-45 67')).toBe('123456');
  });

  it('counts a total that a guest’s choice never makes bigger: the longest path until the choice, then the chosen one', () => {
    const before = countedSteps(null);
    const label = (choice: 'sign-in' | 'local' | null, index: number) =>
      progressOf(index, countedSteps(choice)).label;
    // Each step the guest passes before and at the account prompt, then each choice made there.
    expect([label(null, 0), label(null, 1)]).toEqual(['Step 1 of 9', 'Step 2 of 9']);
    expect(label('sign-in', 1)).toBe('Step 2 of 9');
    expect(label('local', 1)).toBe('Step 2 of 6');
    for (const choice of ['sign-in', 'local'] as const) {
      expect(countedSteps(choice).length).toBeLessThanOrEqual(before.length);
      expect(countedSteps(choice)).toEqual(stepsFor(choice));
    }
    // Signed in already: the tour it shows, nothing to choose.
    expect(countedSteps(null, true)).toEqual(stepsFor(null, true));
  });

  it('reports Step X of N and a percentage', () => {
    expect(progressOf(0, stepsFor(null))).toEqual({ label: 'Step 1 of 6', percent: 17 });
    expect(progressOf(5, stepsFor(null))).toEqual({ label: 'Step 6 of 6', percent: 100 });
  });
});
