import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type QuickAddReading, readQuickAdd } from './quickAdd';

// Wednesday 25 November 2026, 10:00 in New York (15:00 UTC).
const now = new Date('2026-11-25T15:00:00Z');
const read = (text: string, timeZone = 'America/New_York', dismissed?: string[]) =>
  readQuickAdd(text, { now, timeZone, ...(dismissed ? { dismissed: new Set(dismissed) } : {}) });

type Expected = Partial<Omit<QuickAddReading, 'parts'>>;

/** Phrase, expected reading (fields not named are their empty value); dates written out by hand. */
const PHRASES: [string, Expected][] = [
  ['Buy milk tomorrow', { title: 'Buy milk', due_date: '2026-11-26' }],
  ['Buy milk today', { title: 'Buy milk', due_date: '2026-11-25' }],
  [
    'Call mom next fri 5pm',
    { title: 'Call mom', due_date: '2026-12-04', remind_at: '2026-12-04T22:00:00.000Z' },
  ],
  ['Party dec 24', { title: 'Party', due_date: '2026-12-24' }],
  ['Pay rent in 3 days', { title: 'Pay rent', due_date: '2026-11-28' }],
  ['Renew passport in 2 weeks', { title: 'Renew passport', due_date: '2026-12-09' }],
  ['Launch 2027-01-05', { title: 'Launch', due_date: '2027-01-05' }],
  ['Dentist on sat', { title: 'Dentist', due_date: '2026-11-28' }],
  [
    'Ship it tomorrow at 3pm',
    { title: 'Ship it', due_date: '2026-11-26', remind_at: '2026-11-26T20:00:00.000Z' },
  ],
  // Across the March change (14 March 2027): 09:00 is 13:00 UTC in summer time.
  ['Taxes mar 15 9am', { title: 'Taxes', due_date: '2027-03-15', remind_at: '2027-03-15T13:00:00.000Z' }],
  // Words that are only dates when something says so stay in the title.
  ["Read Tomorrow's paper", { title: "Read Tomorrow's paper" }],
  ['Wear sun cream', { title: 'Wear sun cream' }],
  ['Review march report', { title: 'Review march report' }],
  ['I may go', { title: 'I may go' }],
  ['Fix 2 bugs', { title: 'Fix 2 bugs' }],
  // An adverb opening a longer title names the thing; closing it, it is the repeat.
  ['Weekly review', { title: 'Weekly review' }],
  ['Daily standup notes', { title: 'Daily standup notes' }],
  ['Monthly report tomorrow', { title: 'Monthly report', due_date: '2026-11-26' }],
  ['Water plants weekly', { title: 'Water plants', recurrence: 'FREQ=WEEKLY', due_date: '2026-11-25' }],
  // Repeats, with the first date from today on.
  ['Stretch daily', { title: 'Stretch', recurrence: 'FREQ=DAILY', due_date: '2026-11-25' }],
  ['Stretch every day', { title: 'Stretch', recurrence: 'FREQ=DAILY', due_date: '2026-11-25' }],
  [
    'Standup every weekday',
    { title: 'Standup', recurrence: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', due_date: '2026-11-25' },
  ],
  // 09:00 has passed today: the series starts tomorrow.
  [
    'Standup every weekday at 9am',
    {
      title: 'Standup',
      recurrence: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR',
      due_date: '2026-11-26',
      remind_at: '2026-11-26T14:00:00.000Z',
    },
  ],
  [
    'Water plants every 2 weeks on mon',
    { title: 'Water plants', recurrence: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO', due_date: '2026-11-30' },
  ],
  [
    'Backups every other week',
    { title: 'Backups', recurrence: 'FREQ=WEEKLY;INTERVAL=2', due_date: '2026-11-25' },
  ],
  [
    'Pay bills every month on the 15th',
    { title: 'Pay bills', recurrence: 'FREQ=MONTHLY;BYMONTHDAY=15', due_date: '2026-12-15' },
  ],
  [
    'Invoice every 1st',
    { title: 'Invoice', recurrence: 'FREQ=MONTHLY;BYMONTHDAY=1', due_date: '2026-12-01' },
  ],
  [
    'Team lunch every last friday',
    { title: 'Team lunch', recurrence: 'FREQ=MONTHLY;BYDAY=-1FR', due_date: '2026-11-27' },
  ],
  [
    'Review every first monday',
    { title: 'Review', recurrence: 'FREQ=MONTHLY;BYDAY=1MO', due_date: '2026-12-07' },
  ],
  [
    'Gym every mon, wed and fri',
    { title: 'Gym', recurrence: 'FREQ=WEEKLY;BYDAY=MO,WE,FR', due_date: '2026-11-25' },
  ],
  [
    'Call grandma every sunday',
    { title: 'Call grandma', recurrence: 'FREQ=WEEKLY;BYDAY=SU', due_date: '2026-11-29' },
  ],
  ['Anniversary every year', { title: 'Anniversary', recurrence: 'FREQ=YEARLY', due_date: '2026-11-25' }],
  ['Rent every month starting dec 1', { title: 'Rent', recurrence: 'FREQ=MONTHLY', due_date: '2026-12-01' }],
  // Priorities, parents, people and labels.
  [
    'Fix login bug p1 #Work @sam +urgent +backend',
    { title: 'Fix login bug', priority: 1, parent: 'Work', assignee: 'sam', labels: ['urgent', 'backend'] },
  ],
  ['Email p5', { title: 'Email p5' }],
  ['Plan p2 p3', { title: 'Plan p3', priority: 2 }],
  ['a+b stays', { title: 'a+b stays' }],
  ['Tag +one +One', { title: 'Tag +One', labels: ['one'] }],
];

const EMPTY: Omit<QuickAddReading, 'parts' | 'title'> = {
  due_date: null,
  start_date: null,
  estimate_minutes: null,
  remind_at: null,
  recurrence: null,
  priority: null,
  parent: null,
  assignee: null,
  labels: [],
};

describe('quick add reads what you mean', () => {
  it.each(PHRASES)('reads %j', (phrase, expected) => {
    const { parts, ...reading } = read(phrase);
    expect(reading).toEqual({ ...EMPTY, ...expected });
  });

  it('keeps a removed chip’s words in the title and takes nothing from them', () => {
    const first = read('Buy milk tomorrow');
    expect(first.parts.map((p) => [p.kind, p.text, p.label])).toEqual([['date', 'tomorrow', 'Thu 26 Nov']]);
    const again = read('Buy milk tomorrow', 'America/New_York', [first.parts[0]!.key]);
    expect(again).toMatchObject({ title: 'Buy milk tomorrow', due_date: null, parts: [] });
  });

  it('names each part with its place and a chip label', () => {
    const text = 'Call mom next fri 5pm p2 +family';
    const { parts } = read(text);
    expect(parts.map((p) => [p.kind, p.label])).toEqual([
      ['date', 'Fri 4 Dec, 17:00'],
      ['priority', 'Priority 2'],
      ['label', '+family'],
    ]);
    for (const p of parts) expect(text.slice(p.start, p.end)).toBe(p.text);
  });

  it('reads the day and the hour in the given zone (Berlin: 17:00 is 16:00 UTC in winter)', () => {
    expect(read('Call mom next fri 5pm', 'Europe/Berlin')).toMatchObject({
      due_date: '2026-12-04',
      remind_at: '2026-12-04T16:00:00.000Z',
    });
    // 23:30 on the 25th in Kolkata: its 'tomorrow' is the 26th in New York's evening too.
    expect(read('Buy milk tomorrow', 'Asia/Kolkata').due_date).toBe('2026-11-26');
  });

  it('never throws, and every part stands where it says in the text (property)', () => {
    const words = fc.constantFrom(
      'buy',
      'milk',
      'tomorrow',
      'every',
      'day',
      'weekday',
      'p1',
      '#Home',
      '@sam',
      '+x',
      'next',
      'fri',
      '5pm',
      'on',
      'the',
      '15th',
      'march',
      "Tomorrow's",
      'starting',
      'until',
      'dec',
      '1',
      'month',
      'last',
      'at',
      'noon',
      'morning',
      'weekly',
      'in',
      'april',
      '',
    );
    fc.assert(
      fc.property(fc.array(words, { maxLength: 12 }), (list) => {
        const text = list.join(' ');
        const reading = read(text);
        for (const p of reading.parts) expect(text.slice(p.start, p.end)).toBe(p.text);
        // Parts never share a word.
        const spans = reading.parts.map((p) => [p.start, p.end]).sort((a, b) => a[0]! - b[0]!);
        for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1]!);
        // The title is what is left: no part's words are in it twice, and it is trimmed.
        expect(reading.title).toBe(reading.title.trim());
        if (reading.recurrence) expect(reading.due_date).not.toBeNull();
      }),
      { numRuns: 300 },
    );
  });
});
