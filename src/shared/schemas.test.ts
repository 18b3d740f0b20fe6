import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  CONTACTS_PER_REQUEST,
  contactsSyncSchema,
  fieldErrors,
  itemCreateSchema,
  itemPatchSchema,
  loginSchema,
  searchQuerySchema,
  syncQuerySchema,
  titleSchema,
} from './schemas';

/** The `errors` of the 422 the server would answer, or null when the value parses. */
function errorsOf(schema: z.ZodType, value: unknown): Record<string, string[]> | null {
  const result = schema.safeParse(value);
  return result.success ? null : { ...fieldErrors(result.error) };
}

const NUL = '\u0000';
const UNSTORABLE = [`a${NUL}b`, NUL, 'x\ud800', '\udc00y', '\ude42\ud83d'];

describe('free text PostgreSQL cannot store is refused in every schema', () => {
  it.each(UNSTORABLE)('refuses %j in every free-text field with one message naming it', (bad) => {
    const cases: [z.ZodType, unknown, string][] = [
      [itemCreateSchema, { title: bad, type: 'todo' }, 'title'],
      [itemCreateSchema, { title: 'ok', type: 'todo', description: bad }, 'description'],
      [itemPatchSchema, { title: bad }, 'title'],
      [itemPatchSchema, { description: bad }, 'description'],
      [loginSchema, { phone: bad, name: 'Ada' }, 'phone'],
      [loginSchema, { phone: '+12025550100', name: bad }, 'name'],
      [loginSchema, { phone: '+12025550100', name: 'Ada', code: bad }, 'code'],
      [contactsSyncSchema, { contacts: ['+12025550100', bad] }, 'contacts.1'],
      [searchQuerySchema, { q: bad }, 'q'],
      [syncQuerySchema, { cursor: bad }, 'cursor'],
    ];
    for (const [schema, value, field] of cases) {
      const errors = errorsOf(schema, value);
      expect(errors, `${field} ${JSON.stringify(bad)}`).toEqual({
        [field]: [expect.stringMatching(bad.includes(NUL) ? /NUL character/ : /unpaired surrogate/)],
      });
    }
  });

  it('accepts astral characters and ordinary control characters other than NUL', () => {
    expect(
      errorsOf(itemCreateSchema, { title: 'Plan 🙂 \u0001', type: 'todo', description: '🙂' }),
    ).toBeNull();
    expect(errorsOf(searchQuerySchema, { q: '🙂🙂' })).toBeNull();
  });
});

describe('titles', () => {
  it.each(['', '   ', '\u200b', '\u200c\u200d', '\u2060', '\ufeff', ' \u200b \ufeff ', '\u00ad', '\u3164'])(
    'treats %j as empty: The title is required.',
    (title) => {
      expect(errorsOf(titleSchema, title)).toEqual({ body: ['The title is required.'] });
      expect(errorsOf(itemCreateSchema, { title, type: 'todo' })).toEqual({
        title: ['The title is required.'],
      });
      expect(errorsOf(itemPatchSchema, { title })).toEqual({ title: ['The title is required.'] });
    },
  );

  it('keeps a real title, trimmed, with invisible characters inside it', () => {
    expect(titleSchema.parse('  Plan\u200bB  ')).toBe('Plan\u200bB');
  });

  it('still says required for a missing title and too long for a long one', () => {
    expect(errorsOf(itemCreateSchema, { type: 'todo' })).toEqual({ title: ['The title is required.'] });
    expect(errorsOf(itemCreateSchema, { title: 'x'.repeat(256), type: 'todo' })?.title?.[0]).toMatch(
      /255 characters or less/,
    );
  });
});

describe('descriptions', () => {
  it('still turns blank text into null, keeps null, and refuses other types', () => {
    expect(itemPatchSchema.parse({ description: '  ' })).toEqual({ description: null });
    expect(itemPatchSchema.parse({ description: null })).toEqual({ description: null });
    expect(errorsOf(itemPatchSchema, { description: { a: 1 } })).toEqual({
      description: ['The description must be text.'],
    });
  });
});

describe('contacts', () => {
  const phones = (n: number) => Array.from({ length: n }, (_, i) => `+1202555${String(i).padStart(4, '0')}`);

  it(`accepts ${CONTACTS_PER_REQUEST} phones in one request and refuses one more`, () => {
    expect(CONTACTS_PER_REQUEST).toBe(2000);
    expect(errorsOf(contactsSyncSchema, { contacts: phones(2000) })).toBeNull();
    expect(errorsOf(contactsSyncSchema, { contacts: phones(2001) })).toEqual({
      contacts: ['At most 2,000 contacts can be sent at once.'],
    });
  });
});

describe('impossible dates and times', () => {
  const IMPOSSIBLE_INSTANTS = [
    '2027-02-30T10:00:00Z',
    '2027-02-29T10:00:00Z',
    '2027-04-31T10:00:00Z',
    '2027-01-32T10:00:00Z',
    '2027-00-10T10:00:00Z',
    '2027-02-28T24:00:00Z',
    '2027-02-28T24:00Z',
    '2027-02-28T23:60:00Z',
    '2027-02-28T23:59:60Z',
    '2027-02-28T10:00:00+24:00',
    '2027-02-28T10:00:00+05:60',
    '2027-02-28T10:00:00-2400',
  ];

  it.each(IMPOSSIBLE_INSTANTS)('refuses the reminder %s instead of rolling it over (F11)', (bad) => {
    expect(errorsOf(itemCreateSchema, { title: 'x', type: 'todo', remind_at: bad })).toHaveProperty(
      'remind_at',
    );
    expect(errorsOf(itemPatchSchema, { remind_at: bad })).toHaveProperty('remind_at');
  });

  it('still accepts real instants, 29 February of a leap year and the last second of a day (F11)', () => {
    for (const [given, stored] of [
      ['2028-02-29T10:00:00Z', '2028-02-29T10:00:00.000Z'],
      ['2027-12-31T23:59:59.999Z', '2027-12-31T23:59:59.999Z'],
      ['2027-03-01T00:00+14:00', '2027-02-28T10:00:00.000Z'],
      ['2027-03-01T00:00:00-1200', '2027-03-01T12:00:00.000Z'],
    ] as const) {
      const parsed = itemPatchSchema.safeParse({ remind_at: given });
      expect(parsed.success, given).toBe(true);
      expect(parsed.data?.remind_at, given).toBe(stored);
    }
  });

  it.each([
    '2027-02-30',
    '2027-02-29',
    '2027-04-31',
    '2027-13-01',
    '2027-00-01',
    '2027-01-00',
    '2027-02-30T10:00:00Z',
    '2027-02-28T24:00:00Z',
    '2027-02-28T23:60',
  ])('refuses the impossible due and end date %s (F11)', (bad) => {
    expect(errorsOf(itemCreateSchema, { title: 'x', type: 'todo', due_date: bad })).toHaveProperty(
      'due_date',
    );
    expect(errorsOf(itemPatchSchema, { end_date: bad })).toHaveProperty('end_date');
  });

  it('still accepts real dates, with or without a time that is cut off (F11)', () => {
    for (const [given, stored] of [
      ['2028-02-29', '2028-02-29'],
      ['2027-12-31', '2027-12-31'],
      ['2027-02-28T23:59:59Z', '2027-02-28'],
      ['2027-02-28 00:00', '2027-02-28'],
    ] as const) {
      const parsed = itemPatchSchema.safeParse({ due_date: given });
      expect(parsed.success, given).toBe(true);
      expect(parsed.data?.due_date, given).toBe(stored);
    }
  });
});
