import { describe, expect, it } from 'vitest';
import { candidateFromPicked, isAcceptedContactsFile, parseContactsCsv, phonesToSend } from './csv';

describe('CSV contacts parsing', () => {
  it('skips a header line that mentions phone or name', () => {
    const out = parseContactsCsv('Name,Phone\nAda,5551234567\n');
    expect(out).toEqual([{ name: 'Ada', phone: '5551234567', isValid: true }]);
  });

  it('keeps the first line when it is data', () => {
    expect(parseContactsCsv('Ada,5551234567\nBob,5559876543').map((c) => c.name)).toEqual(['Ada', 'Bob']);
  });

  it('splits on semicolons and strips quotes', () => {
    const out = parseContactsCsv('"Grace";"+1 (555) 222-3333"\n');
    expect(out).toEqual([{ name: 'Grace', phone: '15552223333', isValid: true }]);
  });

  it('takes the first field with ten or more digits as the phone and the first non-numeric field as the name', () => {
    const out = parseContactsCsv('42,Linus,555-123,5551112222,5553334444');
    expect(out).toEqual([{ name: 'Linus', phone: '5551112222', isValid: true }]);
  });

  it('finds no contacts when no field has ten digits', () => {
    expect(parseContactsCsv('phone\nAda,12345\n\n')).toEqual([]);
  });

  it('accepts a contact without a name', () => {
    expect(parseContactsCsv('5551234567')).toEqual([{ phone: '5551234567', isValid: true }]);
  });

  it('accepts .csv and .txt files only', () => {
    expect(isAcceptedContactsFile('people.CSV')).toBe(true);
    expect(isAcceptedContactsFile('people.txt')).toBe(true);
    expect(isAcceptedContactsFile('people.xlsx')).toBe(false);
  });

  it('sends each valid phone once', () => {
    expect(
      phonesToSend([
        { phone: '5551234567', isValid: true },
        { phone: '5551234567', isValid: true },
        { phone: '123', isValid: false },
      ]),
    ).toEqual(['5551234567']);
  });

  it('accepts a picked phone contact only when its first number has ten characters', () => {
    expect(candidateFromPicked({ name: ['Ada'], tel: ['+1 555 123 4567'] })).toEqual({
      name: 'Ada',
      phone: '15551234567',
      isValid: true,
    });
    expect(candidateFromPicked({ name: ['Bo'], tel: ['555-1234', '5551234567'] }).isValid).toBe(false);
    expect(candidateFromPicked({}).isValid).toBe(false);
  });
});
