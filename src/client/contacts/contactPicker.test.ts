import { describe, expect, it } from 'vitest';
import { phoneContactsSupported } from '../data/contacts/contactPicker';

describe('phoneContactsSupported', () => {
  it('is true only where navigator.contacts has select', () => {
    expect(phoneContactsSupported({ contacts: { select: async () => [] } })).toBe(true);
    expect(phoneContactsSupported({ contacts: {} })).toBe(false);
    expect(phoneContactsSupported({})).toBe(false);
    expect(phoneContactsSupported(undefined)).toBe(false);
  });
});
