import { describe, expect, it } from 'vitest';
import { importSummary, mutualsAmong } from './importSummary';

describe('contacts import summary', () => {
  it('says how many were sent and how many are mutual, with correct plurals, never that someone is not on Outpost', () => {
    expect(importSummary(3, 1)).toBe('Sent 3 contacts — 1 is on Outpost');
    expect(importSummary(1, 1)).toBe('Sent 1 contact — 1 is on Outpost');
    expect(importSummary(4, 2)).toBe('Sent 4 contacts — 2 are on Outpost');
    expect(importSummary(1, 0)).toBe(
      'Sent 1 contact — no mutual contacts yet. People who use Outpost show up here once they add your number too.',
    );
    expect(importSummary(2, null)).toBe('Sent 2 contacts');
  });

  it('counts the sent phones that are mutual contacts, whatever their format', () => {
    const candidates = [
      { phone: '5551234567', isValid: true },
      { phone: '15559876543', isValid: true },
      { phone: '5551234567', isValid: true },
      { phone: '5550000000', isValid: false },
    ];
    expect(
      mutualsAmong(candidates, [
        { id: 7, name: 'Ada', phone: '+15551234567' },
        { id: 8, name: 'Bob', phone: '+15559876543' },
        { id: 9, name: 'Cy', phone: '+15550000000' },
      ]),
    ).toBe(2);
  });
});
