import { describe, expect, it } from 'vitest';
import { type QuickAddReading, readQuickAdd } from './quickAdd';

/**
 * Issue 48: outside phrases with numbers. A number is a date or time only with a date word or a clear
 * form (a month name, a weekday, 'at 5pm', 'tomorrow', '17:00', a month-first date at the end);
 * otherwise the title keeps it, and an unsure reading ('2h', '24/7', 'at 7', '+1') is offered as a
 * chip that is off until the person turns it on (ARCHITECTURE §5 'Quick add reads what you mean').
 * Expected dates and instants are written by hand from a calendar (New York is UTC-5 in November).
 */

type Expected = Partial<Omit<QuickAddReading, 'parts'>>;
/** The phrase, what it is read as, and the words of the chips offered off. */
type Row = [phrase: string, expected: Expected, offered?: string[]];

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

// Wednesday 25 November 2026, 10:00 in New York.
const NOW = new Date('2026-11-25T15:00:00Z');
const ZONE = 'America/New_York';
const read = (phrase: string, accepted: string[] = []) =>
  readQuickAdd(phrase, { now: NOW, timeZone: ZONE, accepted: new Set(accepted) });

const CORPUS: Row[] = [
  // Titles whose numbers are the title's: nothing taken (an unsure part is offered off).
  ['Workshop 2h', { title: 'Workshop 2h' }, ['2h']],
  ['Hotel 24/7 support', { title: 'Hotel 24/7 support' }, ['24/7']],
  ['Pay 1/2 the bill', { title: 'Pay 1/2 the bill' }, ['1/2']],
  ['Coffee at 7-Eleven', { title: 'Coffee at 7-Eleven' }],
  ['Email +1 555 123 4567', { title: 'Email +1 555 123 4567' }, ['+1']],
  ['Buy 2 apples', { title: 'Buy 2 apples' }],
  ['Room 101', { title: 'Room 101' }],
  ['Call 911', { title: 'Call 911' }],
  ['Route 66 trip', { title: 'Route 66 trip' }],
  ['Fix bug #42', { title: 'Fix bug #42' }, ['#42']],
  ['Read chapter 3-4', { title: 'Read chapter 3-4' }],
  ['Meeting 3/4 done', { title: 'Meeting 3/4 done' }, ['3/4']],
  ['iPhone 15 case', { title: 'iPhone 15 case' }],
  ['50/50 raffle', { title: '50/50 raffle' }],
  ['Top 10 list', { title: 'Top 10 list' }],
  ['C++ book', { title: 'C++ book' }],
  ['Q3 report', { title: 'Q3 report' }],
  ['1:1 with Sam', { title: '1:1 with Sam' }],
  ['Boeing 747 model', { title: 'Boeing 747 model' }],
  ['Sleep 8h', { title: 'Sleep 8h' }, ['8h']],
  ['Open 24 hours', { title: 'Open 24 hours' }, ['24 hours']],
  ['Bake for 30 min', { title: 'Bake for 30 min' }, ['for 30 min']],
  ['Rest for an hour', { title: 'Rest for an hour' }, ['for an hour']],
  ['Score 24/7', { title: 'Score 24/7' }, ['24/7']],
  ['Dinner at 7', { title: 'Dinner at 7' }, ['at 7']],
  ['Call dad at 5', { title: 'Call dad at 5' }, ['at 5']],
  ['Pick up at 7-Eleven', { title: 'Pick up at 7-Eleven' }],
  ['The 5 o clock news', { title: 'The 5 o clock news' }, ['5 o clock']],
  ['Run 5k', { title: 'Run 5k' }],
  ['Read 2 chapters', { title: 'Read 2 chapters' }],
  ['Book 3 nights', { title: 'Book 3 nights' }],
  ['Win 2-1', { title: 'Win 2-1' }],
  ['Section 4.2', { title: 'Section 4.2' }],
  ['Chapter 11 bankruptcy', { title: 'Chapter 11 bankruptcy' }],
  ['Apollo 13 movie', { title: 'Apollo 13 movie' }],
  ['Catch 22 book', { title: 'Catch 22 book' }],
  ['Blink-182 tickets', { title: 'Blink-182 tickets' }],
  ['Call 1 800 FLOWERS', { title: 'Call 1 800 FLOWERS' }],
  ['Plan for 2027', { title: 'Plan for 2027' }],
  ['2 for 1 deal', { title: '2 for 1 deal' }],
  ['Top 5 movies of 2025', { title: 'Top 5 movies of 2025' }],
  ['Windows 11 upgrade', { title: 'Windows 11 upgrade' }],
  ['Pay 3 invoices', { title: 'Pay 3 invoices' }],
  ['Print 2 copies at Staples', { title: 'Print 2 copies at Staples' }],
  ['Buy 1/4 lb ham', { title: 'Buy 1/4 lb ham' }, ['1/4']],
  ['Split 2/3 of the rent', { title: 'Split 2/3 of the rent' }, ['2/3']],
  ['Team +1 the proposal', { title: 'Team +1 the proposal' }, ['+1']],
  ['Lunch with 4 people', { title: 'Lunch with 4 people' }],
  ['Order 6 pack', { title: 'Order 6 pack' }],
  ['Vote 2026 ballot', { title: 'Vote 2026 ballot' }],
  ['Flight AA 100', { title: 'Flight AA 100' }],
  // Dates and times in a clear form or with a date word, around titles with numbers.
  [
    'Gym every day for an hour',
    { title: 'Gym for an hour', due_date: '2026-11-25', recurrence: 'FREQ=DAILY' },
    ['for an hour'],
  ],
  [
    'Call back in an hour',
    { title: 'Call back', due_date: '2026-11-25', remind_at: '2026-11-25T16:00:00.000Z' },
  ],
  ['Call 5pm', { title: 'Call', due_date: '2026-11-25', remind_at: '2026-11-25T22:00:00.000Z' }],
  ['Meet at 17:00', { title: 'Meet', due_date: '2026-11-25', remind_at: '2026-11-25T22:00:00.000Z' }],
  ['Gym tomorrow 9am', { title: 'Gym', due_date: '2026-11-26', remind_at: '2026-11-26T14:00:00.000Z' }],
  ['Gift dec 24', { title: 'Gift', due_date: '2026-12-24' }],
  ['Call next fri', { title: 'Call', due_date: '2026-12-04' }],
  ['Pay rent in 3 days', { title: 'Pay rent', due_date: '2026-11-28' }],
  ['Gym every monday', { title: 'Gym', due_date: '2026-11-30', recurrence: 'FREQ=WEEKLY;BYDAY=MO' }],
  ['Call mom 5pm', { title: 'Call mom', due_date: '2026-11-25', remind_at: '2026-11-25T22:00:00.000Z' }],
  [
    'Take 2 pills at 8am',
    { title: 'Take 2 pills', due_date: '2026-11-26', remind_at: '2026-11-26T13:00:00.000Z' },
  ],
  ['Meeting 2-3pm', { title: 'Meeting', due_date: '2026-11-25', remind_at: '2026-11-25T19:00:00.000Z' }],
  ['Review in 2h', { title: 'Review', due_date: '2026-11-25', remind_at: '2026-11-25T17:00:00.000Z' }],
  [
    'Call back in 30 minutes',
    { title: 'Call back', due_date: '2026-11-25', remind_at: '2026-11-25T15:30:00.000Z' },
  ],
  ['Deadline 2027-01-15', { title: 'Deadline', due_date: '2027-01-15' }],
  ['Party 12/31', { title: 'Party', due_date: '2026-12-31' }],
  ['Pay on 3/15', { title: 'Pay', due_date: '2027-03-15' }],
  ['Standup 9:30', { title: 'Standup', due_date: '2026-11-26', remind_at: '2026-11-26T14:30:00.000Z' }],
  ['Lunch 12:30', { title: 'Lunch', due_date: '2026-11-25', remind_at: '2026-11-25T17:30:00.000Z' }],
  ['Dinner at 7pm', { title: 'Dinner', due_date: '2026-11-25', remind_at: '2026-11-26T00:00:00.000Z' }],
  ['Call at 11am', { title: 'Call', due_date: '2026-11-25', remind_at: '2026-11-25T16:00:00.000Z' }],
  ['Buy 2 apples tomorrow', { title: 'Buy 2 apples', due_date: '2026-11-26' }],
  ['Room 101 cleanup friday', { title: 'Room 101 cleanup', due_date: '2026-11-27' }],
  ['Call 911 drill next monday', { title: 'Call 911 drill', due_date: '2026-11-30' }],
  ['Route 66 trip in 2 weeks', { title: 'Route 66 trip', due_date: '2026-12-09' }],
  ['Read chapter 3-4 tonight', { title: 'Read chapter 3-4', due_date: '2026-11-25' }],
  ['Top 10 list dec 1', { title: 'Top 10 list', due_date: '2026-12-01' }],
  [
    'Workshop 2h tomorrow at 3pm',
    { title: 'Workshop 2h', due_date: '2026-11-26', remind_at: '2026-11-26T20:00:00.000Z' },
  ],
  ['Pay 1/2 the bill tomorrow', { title: 'Pay 1/2 the bill', due_date: '2026-11-26' }],
  [
    'Meet at 7-Eleven at 6pm',
    { title: 'Meet at 7-Eleven', due_date: '2026-11-25', remind_at: '2026-11-25T23:00:00.000Z' },
  ],
  ['Q3 report due friday', { title: 'Q3 report due', due_date: '2026-11-27' }],
  ['Fix bug #42 p1', { title: 'Fix bug #42', priority: 1 }, ['#42']],
  ['iPhone 15 case +shopping', { title: 'iPhone 15 case', labels: ['shopping'] }],
  [
    'Stretch every day at 7:30',
    {
      title: 'Stretch',
      due_date: '2026-11-26',
      remind_at: '2026-11-26T12:30:00.000Z',
      recurrence: 'FREQ=DAILY',
    },
  ],
  [
    'Water plants every 3 days',
    { title: 'Water plants', due_date: '2026-11-25', recurrence: 'FREQ=DAILY;INTERVAL=3' },
  ],
  [
    'Standup every weekday at 9am',
    {
      title: 'Standup',
      due_date: '2026-11-26',
      remind_at: '2026-11-26T14:00:00.000Z',
      recurrence: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR',
    },
  ],
  [
    'Pay rent every month on the 1st',
    { title: 'Pay rent', due_date: '2026-12-01', recurrence: 'FREQ=MONTHLY;BYMONTHDAY=1' },
  ],
  ['Boeing 747 model next sat', { title: 'Boeing 747 model', due_date: '2026-12-05' }],
  ['Read 50 pages today', { title: 'Read 50 pages', due_date: '2026-11-25' }],
  [
    'Call Sam at 4:30pm',
    { title: 'Call Sam', due_date: '2026-11-25', remind_at: '2026-11-25T21:30:00.000Z' },
  ],
  ['Buy tickets march 3', { title: 'Buy tickets', due_date: '2027-03-03' }],
  [
    'Dentist jan 12 at 10am',
    { title: 'Dentist', due_date: '2027-01-12', remind_at: '2027-01-12T15:00:00.000Z' },
  ],
  ['Review 2 PRs this evening', { title: 'Review 2 PRs', due_date: '2026-11-25' }],
  ['Renew passport in 6 months', { title: 'Renew passport', due_date: '2027-05-25' }],
  ['Pay bill 1/15', { title: 'Pay bill', due_date: '2027-01-15' }],
  ['Meet 21:45 tomorrow', { title: 'Meet', due_date: '2026-11-26', remind_at: '2026-11-27T02:45:00.000Z' }],
  ['Pay 3/15', { title: 'Pay', due_date: '2027-03-15' }],
  [
    'Class 101 at 9am monday',
    { title: 'Class 101', due_date: '2026-11-30', remind_at: '2026-11-30T14:00:00.000Z' },
  ],
];

/**
 * Issue 62: a month-name date followed by a priority, #campaign, @person, +label or estimate was
 * saved with no date and its words left in the title; a span ('dec 3 to dec 9') the same; a day the
 * week starts on, and a dashed span that opens a title ('Mon-Fri stretch'), took the title's words.
 */
const FOLLOWED: Row[] = [
  ['Order chairs dec 2 p2', { title: 'Order chairs', due_date: '2026-12-02', priority: 2 }],
  [
    'Fair dec 3 to dec 9 +events',
    { title: 'Fair', start_date: '2026-12-03', due_date: '2026-12-09', labels: ['events'] },
  ],
  ['Order chairs dec 2 #Home', { title: 'Order chairs', due_date: '2026-12-02', parent: 'Home' }],
  ['Order chairs dec 2 @sam', { title: 'Order chairs', due_date: '2026-12-02', assignee: 'sam' }],
  ['Gift dec 24 +family', { title: 'Gift', due_date: '2026-12-24', labels: ['family'] }],
  ['Trip 3 dec p1', { title: 'Trip', due_date: '2026-12-03', priority: 1 }],
  ['Order chairs Dec 2nd p2', { title: 'Order chairs', due_date: '2026-12-02', priority: 2 }],
  ['Order chairs 2 December p4', { title: 'Order chairs', due_date: '2026-12-02', priority: 4 }],
  ['Order 2 chairs dec 2 p2', { title: 'Order 2 chairs', due_date: '2026-12-02', priority: 2 }],
  ['Chapter 11 review dec 2 p1', { title: 'Chapter 11 review', due_date: '2026-12-02', priority: 1 }],
  ['Order chairs p2 dec 2', { title: 'Order chairs', due_date: '2026-12-02', priority: 2 }],
  ['Order chairs dec 2 2027 p3', { title: 'Order chairs', due_date: '2027-12-02', priority: 3 }],
  [
    'Pay rent december 1st p1 +bills',
    { title: 'Pay rent', due_date: '2026-12-01', priority: 1, labels: ['bills'] },
  ],
  [
    'Bake sale nov 30 @ana p3 +school',
    { title: 'Bake sale', due_date: '2026-11-30', assignee: 'ana', priority: 3, labels: ['school'] },
  ],
  [
    'Order chairs dec 2 p2 +office @sam #Home',
    {
      title: 'Order chairs',
      due_date: '2026-12-02',
      priority: 2,
      labels: ['office'],
      assignee: 'sam',
      parent: 'Home',
    },
  ],
  ['Call dec 2 ~30m p1', { title: 'Call', due_date: '2026-12-02', estimate_minutes: 30, priority: 1 }],
  [
    'Call dec 2 est 1h @sam',
    { title: 'Call', due_date: '2026-12-02', estimate_minutes: 60, assignee: 'sam' },
  ],
  ['Gift dec 24, p1', { title: 'Gift', due_date: '2026-12-24', priority: 1 }],
  ['Party 12/31 p1', { title: 'Party', due_date: '2026-12-31', priority: 1 }],
  // A day and a time with a part between them are one date.
  [
    'Call dec 2 p1 at 5pm',
    { title: 'Call', due_date: '2026-12-02', remind_at: '2026-12-02T22:00:00.000Z', priority: 1 },
  ],
  [
    'Call at 5pm +work dec 2',
    { title: 'Call', due_date: '2026-12-02', remind_at: '2026-12-02T22:00:00.000Z', labels: ['work'] },
  ],
  [
    'Party dec 31 at 8pm p1 +fun',
    {
      title: 'Party',
      due_date: '2026-12-31',
      remind_at: '2027-01-01T01:00:00.000Z',
      priority: 1,
      labels: ['fun'],
    },
  ],
  // Spans: start and due (D10).
  [
    'Conference dec 3 to dec 5 #Work @sam',
    {
      title: 'Conference',
      start_date: '2026-12-03',
      due_date: '2026-12-05',
      parent: 'Work',
      assignee: 'sam',
    },
  ],
  ['Fair dec 3 - dec 9 p3', { title: 'Fair', start_date: '2026-12-03', due_date: '2026-12-09', priority: 3 }],
  [
    'Fair dec 3-9 +events',
    { title: 'Fair', start_date: '2026-12-03', due_date: '2026-12-09', labels: ['events'] },
  ],
  [
    'Fair dec 3 to 9 +events',
    { title: 'Fair', start_date: '2026-12-03', due_date: '2026-12-09', labels: ['events'] },
  ],
  [
    'Fair from dec 3 to dec 9 +events',
    { title: 'Fair', start_date: '2026-12-03', due_date: '2026-12-09', labels: ['events'] },
  ],
  [
    'Fair december 3 until december 9 +events',
    { title: 'Fair', start_date: '2026-12-03', due_date: '2026-12-09', labels: ['events'] },
  ],
  [
    'Move dec 3 through dec 9 +home',
    { title: 'Move', start_date: '2026-12-03', due_date: '2026-12-09', labels: ['home'] },
  ],
  [
    'Holiday dec 24 to jan 2 +family',
    { title: 'Holiday', start_date: '2026-12-24', due_date: '2027-01-02', labels: ['family'] },
  ],
  [
    'Visit jan 5 to jan 8 @ana',
    { title: 'Visit', start_date: '2027-01-05', due_date: '2027-01-08', assignee: 'ana' },
  ],
  [
    'Trip 3 dec to 9 dec p2',
    { title: 'Trip', start_date: '2026-12-03', due_date: '2026-12-09', priority: 2 },
  ],
  ['Trip from 3 dec to 9 dec', { title: 'Trip', start_date: '2026-12-03', due_date: '2026-12-09' }],
  [
    'Trip from 3 dec to 9 dec +travel',
    { title: 'Trip', start_date: '2026-12-03', due_date: '2026-12-09', labels: ['travel'] },
  ],
  ['Trip from 3 to 9 dec', { title: 'Trip', start_date: '2026-12-03', due_date: '2026-12-09' }],
  [
    'Sale (dec 2 to dec 5) +shop',
    { title: 'Sale', start_date: '2026-12-02', due_date: '2026-12-05', labels: ['shop'] },
  ],
  ['Stretch mon-fri', { title: 'Stretch', start_date: '2026-11-30', due_date: '2026-12-04' }],
  // A dashed span that opens a longer title names the thing: offered, not taken.
  ['Mon-Fri stretch', { title: 'Mon-Fri stretch' }, ['Mon-Fri']],
  ['Mon-Fri stretch p2', { title: 'Mon-Fri stretch', priority: 2 }, ['Mon-Fri']],
  ['mon-wed sprint +work', { title: 'mon-wed sprint', labels: ['work'] }, ['mon-wed']],
  ['Dec 3-9 trip', { title: 'Dec 3-9 trip' }, ['Dec 3-9']],
  // The day a week starts on is the rule's (WKST) or the title's, never a due date.
  [
    'Swim every 2 weeks on tue and sun (week starts sunday)',
    { title: 'Swim', due_date: '2026-11-29', recurrence: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;WKST=SU' },
  ],
  [
    'Swim every 2 weeks on tue and sun (week starts sunday) p1',
    {
      title: 'Swim',
      due_date: '2026-11-29',
      recurrence: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;WKST=SU',
      priority: 1,
    },
  ],
  ['Plan the rota (week starts sunday)', { title: 'Plan the rota (week starts sunday)' }],
  ['Rota for the week starting monday', { title: 'Rota for the week starting monday' }],
  // Brackets around a date go with it; a name in brackets stays whole.
  ['Dentist (friday)', { title: 'Dentist', due_date: '2026-11-27' }],
  ['Dentist (on dec 2)', { title: 'Dentist', due_date: '2026-12-02' }],
  [
    'Dentist (fri at 3pm)',
    { title: 'Dentist', due_date: '2026-11-27', remind_at: '2026-11-27T20:00:00.000Z' },
  ],
  ['Read (Friday Night Lights)', { title: 'Read (Friday Night Lights)' }],
  // 'the week', 'the month' are words of the title.
  ['Plan the week', { title: 'Plan the week' }],
  ['Employee of the month', { title: 'Employee of the month' }],
  ['Plan the week p1 dec 2', { title: 'Plan the week', due_date: '2026-12-02', priority: 1 }],
  // A repeat's first day after its time, with a part between.
  [
    'Gym every day at 7pm p1 starting dec 2',
    {
      title: 'Gym',
      due_date: '2026-12-02',
      remind_at: '2026-12-03T00:00:00.000Z',
      recurrence: 'FREQ=DAILY',
      priority: 1,
    },
  ],
  ['Call mom tomorrow, then dad', { title: 'Call mom, then dad', due_date: '2026-11-26' }],
];

describe('quick add leaves the numbers of a title alone (issue 48 corpus)', () => {
  it('holds at least 95 phrases', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(95);
  });

  it.each(CORPUS)('reads %j', (phrase, expected, offered = []) => {
    const { parts, ...reading } = read(phrase);
    expect(reading).toEqual({ ...EMPTY, ...expected });
    expect(parts.filter((p) => p.off).map((p) => p.text)).toEqual(offered);
    for (const p of parts) expect(phrase.slice(p.start, p.end)).toBe(p.text);
  });
});

describe('quick add reads a month-name date and a span with parts after them (issue 62)', () => {
  it('holds at least 50 phrases', () => {
    expect(FOLLOWED.length).toBeGreaterThanOrEqual(50);
  });

  it.each(FOLLOWED)('reads %j', (phrase, expected, offered = []) => {
    const { parts, ...reading } = read(phrase);
    expect(reading).toEqual({ ...EMPTY, ...expected });
    expect(parts.filter((p) => p.off).map((p) => p.text)).toEqual(offered);
    for (const p of parts) expect(phrase.slice(p.start, p.end)).toBe(p.text);
  });

  it('a day and a time apart: each its own chip, the time saying only its hour', () => {
    expect(read('Call dec 2 p1 at 5pm').parts.map((p) => [p.kind, p.text, p.label])).toEqual([
      ['date', 'dec 2', 'Wed 2 Dec'],
      ['priority', 'p1', 'Priority 1'],
      ['date', 'at 5pm', '17:00'],
    ]);
    expect(read('Call at 5pm +work dec 2').parts.map((p) => [p.text, p.label])).toEqual([
      ['at 5pm', '17:00'],
      ['+work', '+work'],
      ['dec 2', 'Wed 2 Dec'],
    ]);
  });

  it('Mon-Fri stretch: the span turned on is taken, start and due', () => {
    const off = read('Mon-Fri stretch');
    expect(read('Mon-Fri stretch', [off.parts[0]!.key])).toMatchObject({
      title: 'stretch',
      start_date: '2026-11-30',
      due_date: '2026-12-04',
    });
  });
});

describe('an unsure chip is off until the person turns it on', () => {
  it('Workshop 2h: the reminder is offered, and set only once its chip is on', () => {
    const off = read('Workshop 2h');
    expect(off.parts).toMatchObject([{ kind: 'date', text: '2h', label: 'Wed 25 Nov, 12:00', off: true }]);
    const on = read('Workshop 2h', [off.parts[0]!.key]);
    expect(on).toMatchObject({
      title: 'Workshop',
      due_date: '2026-11-25',
      remind_at: '2026-11-25T17:00:00.000Z',
    });
    expect(on.parts[0]!.off).toBeUndefined();
  });

  it('Email +1 555 123 4567: the label +1 is offered off, and taken once on', () => {
    const off = read('Email +1 555 123 4567');
    expect(off.parts).toMatchObject([{ kind: 'label', text: '+1', off: true }]);
    expect(read('Email +1 555 123 4567', [off.parts[0]!.key])).toMatchObject({
      title: 'Email 555 123 4567',
      labels: ['1'],
    });
  });

  it('Pay 1/2 the bill tomorrow: a sure date wins and the unsure one is not offered', () => {
    expect(read('Pay 1/2 the bill tomorrow').parts.map((p) => [p.text, p.off ?? false])).toEqual([
      ['tomorrow', false],
    ]);
  });

  it('a removed unsure chip is gone, even when it was turned on', () => {
    const key = read('Dinner at 7').parts[0]!.key;
    const gone = readQuickAdd('Dinner at 7', {
      now: NOW,
      timeZone: ZONE,
      accepted: new Set([key]),
      dismissed: new Set([key]),
    });
    expect(gone).toMatchObject({ title: 'Dinner at 7', remind_at: null, parts: [] });
  });
});
