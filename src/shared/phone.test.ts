import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPhone, normalizePhone } from './phone';

const digit = fc.constantFrom(...'0123456789');
const digits = (n: number) => fc.array(digit, { minLength: n, maxLength: n }).map((d) => d.join(''));

/** A US number as its three parts, area code and exchange starting 2-9 as real ones do. */
const usNumber = fc.record({
  area: fc.tuple(fc.constantFrom(...'23456789'), digits(2)).map(([a, b]) => a + b),
  exchange: fc.tuple(fc.constantFrom(...'23456789'), digits(2)).map(([a, b]) => a + b),
  line: digits(4),
});

const formats: ((n: { area: string; exchange: string; line: string }) => string)[] = [
  ({ area, exchange, line }) => `${area}${exchange}${line}`,
  ({ area, exchange, line }) => `(${area}) ${exchange}-${line}`,
  ({ area, exchange, line }) => `${area}-${exchange}-${line}`,
  ({ area, exchange, line }) => `${area}.${exchange}.${line}`,
  ({ area, exchange, line }) => `${area} ${exchange} ${line}`,
  ({ area, exchange, line }) => `+1 (${area}) ${exchange}-${line}`,
  ({ area, exchange, line }) => `+1${area}${exchange}${line}`,
  ({ area, exchange, line }) => `1-${area}-${exchange}-${line}`,
  ({ area, exchange, line }) => `1 ${area} ${exchange} ${line}`,
  ({ area, exchange, line }) => `  +1-${area}-${exchange}-${line}  `,
];

const E164 = /^\+[1-9]\d{1,14}$/;

describe('normalizePhone', () => {
  it('gives every formatting of the same number the same E.164 form', () => {
    fc.assert(
      fc.property(usNumber, fc.constantFrom(...formats), fc.constantFrom(...formats), (n, a, b) => {
        const expected = `+1${n.area}${n.exchange}${n.line}`;
        expect(normalizePhone(a(n))).toBe(expected);
        expect(normalizePhone(b(n))).toBe(expected);
      }),
    );
  });

  it('answers E.164, and normalising that again changes nothing', () => {
    const phoneish = fc.string({ unit: fc.constantFrom(...'0123456789+-(). '), maxLength: 20 });
    fc.assert(
      fc.property(phoneish, (text) => {
        const normal = normalizePhone(text);
        if (normal === null) return;
        expect(normal).toMatch(E164);
        expect(normalizePhone(normal)).toBe(normal);
      }),
    );
  });

  it('is not fooled by letters mixed into a number', () => {
    const letter = fc.constantFrom(...'abcdefghijklmnopqrstuvwyzABCDEFGHIJKLMNOPQRSTUVWYZ');
    fc.assert(
      fc.property(usNumber, fc.constantFrom(...formats), fc.nat(), letter, (n, format, at, l) => {
        const text = format(n);
        const position = at % (text.length + 1);
        expect(normalizePhone(text.slice(0, position) + l + text.slice(position))).toBeNull();
      }),
    );
  });

  it('refuses text with too few digits to be a number', () => {
    const short = fc
      .array(fc.oneof(digit, fc.constantFrom(' ', '-', '(', ')', '.')), { maxLength: 12 })
      .map((chars) => chars.join(''))
      .filter((s) => (s.match(/\d/g) ?? []).length <= 6);
    fc.assert(
      fc.property(short, (text) => {
        expect(normalizePhone(text)).toBeNull();
      }),
    );
  });

  it("treats '+1 (555) 123-4567' and '5551234567' as one person, and 'not a phone' and '12' as no phone", () => {
    expect(normalizePhone('+1 (555) 123-4567')).toBe('+15551234567');
    expect(normalizePhone('5551234567')).toBe('+15551234567');
    expect(normalizePhone('not a phone')).toBeNull();
    expect(normalizePhone('12')).toBeNull();
    expect(normalizePhone('')).toBeNull();
    expect(isPhone('555-123-4567')).toBe(true);
  });

  it('keeps an extension out of the identity', () => {
    expect(normalizePhone('555 123 4567 ext. 9')).toBe('+15551234567');
    expect(normalizePhone('5551234567 x12')).toBe('+15551234567');
  });

  it('reads numbers of other countries in international form, and national ones by the default country', () => {
    expect(normalizePhone('+44 20 7946 0958')).toBe('+442079460958');
    expect(normalizePhone('020 7946 0958', 'GB')).toBe('+442079460958');
  });
});
