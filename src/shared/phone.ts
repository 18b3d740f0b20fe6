import type { CountryCode } from 'libphonenumber-js/min';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

export const DEFAULT_COUNTRY = 'US' satisfies CountryCode;

/**
 * The E.164 form of a phone number, or null when the text holds no possible number.
 * `isPossible` (length only) rather than `isValid`, so 555 test numbers sign in.
 */
export function normalizePhone(input: string, defaultCountry: string = DEFAULT_COUNTRY): string | null {
  if (typeof input !== 'string') return null;
  const text = input.trim();
  if (text.length === 0 || text.length > 64) return null;
  // Letters mean prose, not a number; libphonenumber would happily read digits out of it.
  if (/[a-z]/i.test(text.replace(/\b(ext|x)\.?\s*\d+$/i, ''))) return null;
  const parsed = parsePhoneNumberFromString(text, defaultCountry as CountryCode);
  if (!parsed?.isPossible()) return null;
  return parsed.number;
}

/** True when the text holds a possible phone number. */
export function isPhone(input: string, defaultCountry: string = DEFAULT_COUNTRY): boolean {
  return normalizePhone(input, defaultCountry) !== null;
}
