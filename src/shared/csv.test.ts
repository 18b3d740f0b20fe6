import { describe, expect, it } from 'vitest';
import {
  CONTACTS_FILE_MAX_BYTES,
  candidateFromPicked,
  contactsFileProblem,
  isAcceptedContactsFile,
  parseContactsCsv,
  parseContactsFile,
  phonesToSend,
} from './csv';

const bytes = (text: string) => new TextEncoder().encode(text);
const PNG_START = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52,
]);

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

  it('keeps an unclosed quote on its own line: the rows after it are still read', () => {
    const { candidates, skipped } = parseContactsFile(
      'Ada,5551234567\n"Bob,5559876543\nCy,5552223333\nDee,"5554445555',
    );
    expect(candidates.map((c) => c.phone)).toEqual(['5551234567', '5559876543', '5552223333', '5554445555']);
    expect(skipped).toEqual([]);
  });

  it('validates numbers as phones and lists every skipped line with its reason', () => {
    const { candidates, skipped } = parseContactsFile(
      'Name,Phone\nAda,5551234567\nBad,1234567890123456789012\n\nNo number,12\nAda again,555-123-4567\n',
    );
    expect(candidates).toEqual([{ name: 'Ada', phone: '5551234567', isValid: true }]);
    expect(skipped).toEqual([
      { line: 1, text: 'Name,Phone', reason: 'Column headings' },
      {
        line: 3,
        text: 'Bad,1234567890123456789012',
        reason: '“1234567890123456789012” is not a phone number',
      },
      { line: 5, text: 'No number,12', reason: 'No phone number (10 or more digits)' },
      { line: 6, text: 'Ada again,555-123-4567', reason: 'Same number as line 2' },
    ]);
  });

  it('rejects files that are not text: binary bytes, other extensions, non-text MIME types', () => {
    expect(contactsFileProblem({ name: 'photo.png', type: 'image/png', size: 16, bytes: PNG_START })).toMatch(
      /not a CSV or text file/,
    );
    expect(contactsFileProblem({ name: 'photo.csv', type: '', size: 16, bytes: PNG_START })).toMatch(
      /not a CSV/,
    );
    expect(
      contactsFileProblem({ name: 'people.csv', type: 'image/png', size: 3, bytes: bytes('a,b') }),
    ).toMatch(/not a CSV/);
    expect(contactsFileProblem({ name: 'people.xlsx', type: '', size: 3, bytes: bytes('a,b') })).toMatch(
      /not a CSV/,
    );
    expect(
      contactsFileProblem({
        name: 'big.csv',
        type: 'text/csv',
        size: CONTACTS_FILE_MAX_BYTES + 1,
        bytes: bytes('a'),
      }),
    ).toMatch(/too large/);
    for (const type of ['text/csv', 'text/plain', 'application/vnd.ms-excel', ''])
      expect(
        contactsFileProblem({ name: 'people.csv', type, size: 20, bytes: bytes('Ada;5551234567\r\n\t') }),
      ).toBeNull();
    expect(
      contactsFileProblem({ name: 'people', type: '', size: 11, bytes: bytes('Zoë,5551234567') }),
    ).toBeNull();
  });

  it('never reads garbage as contacts', () => {
    const garbage = String.fromCharCode(...Array.from({ length: 2000 }, (_, i) => 0x21 + ((i * 7919) % 90)));
    for (const c of parseContactsCsv(garbage)) expect(c.phone.length).toBeLessThanOrEqual(15);
  });
});
