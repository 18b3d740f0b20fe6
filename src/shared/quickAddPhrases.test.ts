import { describe, expect, it } from 'vitest';
import { type QuickAddReading, readQuickAdd } from './quickAdd';
import { nextOccurrence, type OccurrenceSource } from './recurrence';

/**
 * The phrase table (issue 32's budget: at least 200 inputs). Every expected date and instant is
 * written out by hand from a calendar, dateutil-style (relativedelta for 'in 3 days', the RFC 5545
 * examples for WKST, the zone's offset on the day for a reminder), never computed by the reader.
 * Fields not named are empty; a phrase with only a title is text the reader must leave alone.
 */

type Expected = Partial<Omit<QuickAddReading, 'parts'>>;
type Row = [phrase: string, expected: Expected];

interface Moment {
  name: string;
  /** The instant the person types at. */
  now: string;
  timeZone: string;
  rows: Row[];
}

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

// Shorthands: a title due on a day; the same with a reminder; a repeat from its first day.
const on = (title: string, due_date: string, remind_at?: string): Expected =>
  remind_at ? { title, due_date, remind_at } : { title, due_date };
const every = (title: string, recurrence: string, due_date: string, remind_at?: string): Expected =>
  remind_at ? { title, recurrence, due_date, remind_at } : { title, recurrence, due_date };
const text = (title: string): Expected => ({ title });

const WEEKDAYS = 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR';

// Wednesday 25 November 2026, 10:00 in New York (EST, UTC-5: 09:00 is 14:00Z).
const WEDNESDAY: Moment = {
  name: 'Wednesday 25 Nov 2026, 10:00 New York',
  now: '2026-11-25T15:00:00Z',
  timeZone: 'America/New_York',
  rows: [
    // Days in words and counted days.
    ['Buy milk tomorrow', on('Buy milk', '2026-11-26')],
    ['Buy milk tmrw', on('Buy milk', '2026-11-26')],
    ['Buy milk today', on('Buy milk', '2026-11-25')],
    ['Buy milk tonight', on('Buy milk', '2026-11-25')],
    ['Buy milk this evening', on('Buy milk', '2026-11-25')],
    ['Buy milk tomorrow morning', on('Buy milk', '2026-11-26')],
    ['Pay rent in 3 days', on('Pay rent', '2026-11-28')],
    ['Pay rent in 1 day', on('Pay rent', '2026-11-26')],
    ['Pay rent in a week', on('Pay rent', '2026-12-02')],
    ['Pay rent in 2 weeks', on('Pay rent', '2026-12-09')],
    ['Pay rent in 10 days', on('Pay rent', '2026-12-05')],
    ['Pay rent in 2 months', on('Pay rent', '2027-01-25')],
    ['Pay rent in a year', on('Pay rent', '2027-11-25')],
    ['Call back in 2 hours', on('Call back', '2026-11-25', '2026-11-25T17:00:00.000Z')],
    ['Call back in 30 minutes', on('Call back', '2026-11-25', '2026-11-25T15:30:00.000Z')],
    ['Meet 2 weeks from now', on('Meet', '2026-12-09')],
    ['Meet 3 days from now', on('Meet', '2026-11-28')],
    ['Log it yesterday', on('Log it', '2026-11-24')],
    ['Log it 3 days ago', on('Log it', '2026-11-22')],
    ['Meet the day after tomorrow', on('Meet', '2026-11-27')],
    ['Meet day after tomorrow', on('Meet', '2026-11-27')],
    ['Meet day after tomorrow at 4pm', on('Meet', '2026-11-27', '2026-11-27T21:00:00.000Z')],
    ['Meet next week', on('Meet', '2026-12-02')],
    ['Meet next month', on('Meet', '2026-12-25')],
    ['Meet next year', on('Meet', '2027-11-25')],
    // Weekdays: a bare one is the next such day from today on; 'next' is next week's.
    ['Call monday', on('Call', '2026-11-30')],
    ['Call mon', on('Call', '2026-11-30')],
    ['Call tuesday', on('Call', '2026-12-01')],
    ['Call tue', on('Call', '2026-12-01')],
    ['Call wednesday', on('Call', '2026-11-25')],
    ['Call on wed', on('Call', '2026-11-25')],
    ['Call thursday', on('Call', '2026-11-26')],
    ['Call thu', on('Call', '2026-11-26')],
    ['Call thurs', on('Call', '2026-11-26')],
    ['Call friday', on('Call', '2026-11-27')],
    ['Call fri', on('Call', '2026-11-27')],
    ['Call FRIDAY', on('Call', '2026-11-27')],
    ['Call saturday', on('Call', '2026-11-28')],
    ['Call on sat', on('Call', '2026-11-28')],
    ['Call sunday', on('Call', '2026-11-29')],
    ['Call on sun', on('Call', '2026-11-29')],
    ['Call this friday', on('Call', '2026-11-27')],
    ['Call this saturday', on('Call', '2026-11-28')],
    ['Call next monday', on('Call', '2026-11-30')],
    ['Call next tuesday', on('Call', '2026-12-01')],
    ['Call next wednesday', on('Call', '2026-12-02')],
    ['Call next thursday', on('Call', '2026-12-03')],
    ['Call next fri', on('Call', '2026-12-04')],
    ['Call next saturday', on('Call', '2026-12-05')],
    ['Call next sunday', on('Call', '2026-12-06')],
    ['Work on monday', on('Work', '2026-11-30')],
    // Month names and ordinals: the next such day from today on (today's date is today).
    ['Party dec 24', on('Party', '2026-12-24')],
    ['Party Dec 24', on('Party', '2026-12-24')],
    ['Party december 24', on('Party', '2026-12-24')],
    ['Party 24 dec', on('Party', '2026-12-24')],
    ['Party december 24th', on('Party', '2026-12-24')],
    ['Party 24th december', on('Party', '2026-12-24')],
    ['Party on dec 24', on('Party', '2026-12-24')],
    ['Party jan 1', on('Party', '2027-01-01')],
    ['Party january 1st', on('Party', '2027-01-01')],
    ['Party 1st of january', on('Party', '2027-01-01')],
    ['Party feb 14', on('Party', '2027-02-14')],
    ['Party march 3rd', on('Party', '2027-03-03')],
    ['Party apr 1', on('Party', '2027-04-01')],
    ['Party may 5', on('Party', '2027-05-05')],
    ['Party june 21', on('Party', '2027-06-21')],
    ['Party jul 4', on('Party', '2027-07-04')],
    ['Party aug 31', on('Party', '2027-08-31')],
    ['Party sept 10', on('Party', '2027-09-10')],
    ['Party oct 10', on('Party', '2027-10-10')],
    ['Party nov 24', on('Party', '2027-11-24')],
    ['Party nov 25', on('Party', '2026-11-25')],
    ['Party nov 26', on('Party', '2026-11-26')],
    ['Party june 3rd 2027', on('Party', '2027-06-03')],
    ['Party dec 24 2027', on('Party', '2027-12-24')],
    ['Party 2027-01-05', on('Party', '2027-01-05')],
    ['Party 12/31', on('Party', '2026-12-31')],
    ['Party 1/15', on('Party', '2027-01-15')],
    ['Party on the 15th', on('Party', '2026-12-15')],
    ['Party on the 30th', on('Party', '2026-11-30')],
    ['Party on the 25th', on('Party', '2026-11-25')],
    ['Party on the 31st', on('Party', '2026-12-31')],
    ['Taxes in april', on('Taxes', '2027-04-01')],
    ['Trip next march', on('Trip', '2027-03-01')],
    // Times: am/pm, 24 h, noon and midnight; a time already past today is tomorrow's.
    ['Meet at 5pm', on('Meet', '2026-11-25', '2026-11-25T22:00:00.000Z')],
    ['Meet at 5 pm', on('Meet', '2026-11-25', '2026-11-25T22:00:00.000Z')],
    ['Meet at 17:00', on('Meet', '2026-11-25', '2026-11-25T22:00:00.000Z')],
    ['Meet at 11am', on('Meet', '2026-11-25', '2026-11-25T16:00:00.000Z')],
    ['Meet at 9am', on('Meet', '2026-11-26', '2026-11-26T14:00:00.000Z')],
    ['Meet 9:30am', on('Meet', '2026-11-26', '2026-11-26T14:30:00.000Z')],
    ['Meet 21:45', on('Meet', '2026-11-25', '2026-11-26T02:45:00.000Z')],
    ['Meet 0:30', on('Meet', '2026-11-26', '2026-11-26T05:30:00.000Z')],
    ['Meet at noon', on('Meet', '2026-11-25', '2026-11-25T17:00:00.000Z')],
    ['Meet at midnight', on('Meet', '2026-11-26', '2026-11-26T05:00:00.000Z')],
    ['Meet 12pm', on('Meet', '2026-11-25', '2026-11-25T17:00:00.000Z')],
    ['Meet 12am', on('Meet', '2026-11-26', '2026-11-26T05:00:00.000Z')],
    ['Meet tomorrow noon', on('Meet', '2026-11-26', '2026-11-26T17:00:00.000Z')],
    ['Meet tomorrow at noon', on('Meet', '2026-11-26', '2026-11-26T17:00:00.000Z')],
    ['Meet tomorrow at 7am', on('Meet', '2026-11-26', '2026-11-26T12:00:00.000Z')],
    ['Meet 7am tomorrow', on('Meet', '2026-11-26', '2026-11-26T12:00:00.000Z')],
    ['Meet tomorrow 08:15', on('Meet', '2026-11-26', '2026-11-26T13:15:00.000Z')],
    ['Meet today at 3:45pm', on('Meet', '2026-11-25', '2026-11-25T20:45:00.000Z')],
    ['Meet fri at 9', on('Meet', '2026-11-27', '2026-11-27T14:00:00.000Z')],
    ['Meet 9 am friday', on('Meet', '2026-11-27', '2026-11-27T14:00:00.000Z')],
    ['Meet thursday 8am', on('Meet', '2026-11-26', '2026-11-26T13:00:00.000Z')],
    ['Meet next fri 5pm', on('Meet', '2026-12-04', '2026-12-04T22:00:00.000Z')],
    ['Meet dec 24 at 6pm', on('Meet', '2026-12-24', '2026-12-24T23:00:00.000Z')],
    ['Meet dec 24 at 18:30', on('Meet', '2026-12-24', '2026-12-24T23:30:00.000Z')],
    ['Meet jan 2 at 10am', on('Meet', '2027-01-02', '2027-01-02T15:00:00.000Z')],
    // July is summer time (EDT, UTC-4): 21:00 is 01:00Z the next day.
    ['Meet july 4 at 9pm', on('Meet', '2027-07-04', '2027-07-05T01:00:00.000Z')],
    ['Meet at the office at 5pm', on('Meet at the office', '2026-11-25', '2026-11-25T22:00:00.000Z')],
    // Daily rules: the first date is today unless its time has passed.
    ['Stretch every day', every('Stretch', 'FREQ=DAILY', '2026-11-25')],
    ['Stretch everyday', every('Stretch', 'FREQ=DAILY', '2026-11-25')],
    ['Stretch daily', every('Stretch', 'FREQ=DAILY', '2026-11-25')],
    ['Stretch every other day', every('Stretch', 'FREQ=DAILY;INTERVAL=2', '2026-11-25')],
    ['Stretch every 3 days', every('Stretch', 'FREQ=DAILY;INTERVAL=3', '2026-11-25')],
    ['Stretch every day at 9am', every('Stretch', 'FREQ=DAILY', '2026-11-26', '2026-11-26T14:00:00.000Z')],
    ['Stretch every day at 5pm', every('Stretch', 'FREQ=DAILY', '2026-11-25', '2026-11-25T22:00:00.000Z')],
    ['Stretch every day 9am', every('Stretch', 'FREQ=DAILY', '2026-11-26', '2026-11-26T14:00:00.000Z')],
    ['Stretch daily at 8pm', every('Stretch', 'FREQ=DAILY', '2026-11-25', '2026-11-26T01:00:00.000Z')],
    ['Stretch every morning', every('Stretch', 'FREQ=DAILY', '2026-11-26', '2026-11-26T14:00:00.000Z')],
    ['Stretch every evening', every('Stretch', 'FREQ=DAILY', '2026-11-25', '2026-11-26T00:00:00.000Z')],
    ['Stretch every day starting tomorrow', every('Stretch', 'FREQ=DAILY', '2026-11-26')],
    ['Stretch every day until dec 31', every('Stretch', 'FREQ=DAILY;UNTIL=20261231', '2026-11-25')],
    ['Every day read', every('read', 'FREQ=DAILY', '2026-11-25')],
    // Weekday and weekly rules.
    ['Standup every weekday', every('Standup', WEEKDAYS, '2026-11-25')],
    ['Standup every workday', every('Standup', WEEKDAYS, '2026-11-25')],
    ['Standup every weekday at 9:30am', every('Standup', WEEKDAYS, '2026-11-26', '2026-11-26T14:30:00.000Z')],
    ['Standup every weekday at noon', every('Standup', WEEKDAYS, '2026-11-25', '2026-11-25T17:00:00.000Z')],
    ['Chores every weekend', every('Chores', 'FREQ=WEEKLY;BYDAY=SA,SU', '2026-11-28')],
    ['Water plants weekly', every('Water plants', 'FREQ=WEEKLY', '2026-11-25')],
    ['Water plants every week', every('Water plants', 'FREQ=WEEKLY', '2026-11-25')],
    ['Water plants every week on tue', every('Water plants', 'FREQ=WEEKLY;BYDAY=TU', '2026-12-01')],
    ['Water plants weekly on tue and fri', every('Water plants', 'FREQ=WEEKLY;BYDAY=TU,FR', '2026-11-27')],
    ['Gym every monday', every('Gym', 'FREQ=WEEKLY;BYDAY=MO', '2026-11-30')],
    ['Gym every mon 9am', every('Gym', 'FREQ=WEEKLY;BYDAY=MO', '2026-11-30', '2026-11-30T14:00:00.000Z')],
    ['Gym every wednesday', every('Gym', 'FREQ=WEEKLY;BYDAY=WE', '2026-11-25')],
    [
      'Gym every wednesday at 9am',
      every('Gym', 'FREQ=WEEKLY;BYDAY=WE', '2026-12-02', '2026-12-02T14:00:00.000Z'),
    ],
    ['Gym every tue and thu', every('Gym', 'FREQ=WEEKLY;BYDAY=TU,TH', '2026-11-26')],
    ['Gym every tue, thu', every('Gym', 'FREQ=WEEKLY;BYDAY=TU,TH', '2026-11-26')],
    ['Gym every tue & thu', every('Gym', 'FREQ=WEEKLY;BYDAY=TU,TH', '2026-11-26')],
    ['Gym every mon wed fri', every('Gym', 'FREQ=WEEKLY;BYDAY=MO,WE,FR', '2026-11-25')],
    ['Gym every mon, wed and fri', every('Gym', 'FREQ=WEEKLY;BYDAY=MO,WE,FR', '2026-11-25')],
    [
      'Gym every tuesday and thursday at 7pm',
      every('Gym', 'FREQ=WEEKLY;BYDAY=TU,TH', '2026-11-26', '2026-11-27T00:00:00.000Z'),
    ],
    ['Mow every sat', every('Mow', 'FREQ=WEEKLY;BYDAY=SA', '2026-11-28')],
    ['Church every sunday', every('Church', 'FREQ=WEEKLY;BYDAY=SU', '2026-11-29')],
    ['Every monday standup', every('standup', 'FREQ=WEEKLY;BYDAY=MO', '2026-11-30')],
    ['Backups every 2 weeks', every('Backups', 'FREQ=WEEKLY;INTERVAL=2', '2026-11-25')],
    ['Backups every other week', every('Backups', 'FREQ=WEEKLY;INTERVAL=2', '2026-11-25')],
    ['Backups every 2 weeks on mon', every('Backups', 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO', '2026-11-30')],
    ['Backups every other week on friday', every('Backups', 'FREQ=WEEKLY;INTERVAL=2;BYDAY=FR', '2026-11-27')],
    [
      'Backups every 3 weeks on tue and fri',
      every('Backups', 'FREQ=WEEKLY;INTERVAL=3;BYDAY=TU,FR', '2026-11-27'),
    ],
    // WKST: which weeks INTERVAL skips depends on the day they start (RFC 5545 §3.3.10).
    ['Swim every 2 weeks on tue and sun', every('Swim', 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU', '2026-11-29')],
    [
      'Swim every 2 weeks on tue and sun, week starts sunday',
      every('Swim', 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;WKST=SU', '2026-11-29'),
    ],
    [
      'Swim every 2 weeks on tue and sun (week starts sunday)',
      every('Swim', 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;WKST=SU', '2026-11-29'),
    ],
    [
      'Swim every 2 weeks on tue and sun week starts monday',
      every('Swim', 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU', '2026-11-29'),
    ],
    // Monthly rules.
    ['Pay bills monthly', every('Pay bills', 'FREQ=MONTHLY', '2026-11-25')],
    ['Pay bills every month', every('Pay bills', 'FREQ=MONTHLY', '2026-11-25')],
    ['Pay bills every month on the 15th', every('Pay bills', 'FREQ=MONTHLY;BYMONTHDAY=15', '2026-12-15')],
    ['Pay bills every month on the 1st', every('Pay bills', 'FREQ=MONTHLY;BYMONTHDAY=1', '2026-12-01')],
    ['Pay bills every month on the 25th', every('Pay bills', 'FREQ=MONTHLY;BYMONTHDAY=25', '2026-11-25')],
    ['Pay bills every month on the 31st', every('Pay bills', 'FREQ=MONTHLY;BYMONTHDAY=31', '2026-12-31')],
    ['Pay bills monthly on the 6th', every('Pay bills', 'FREQ=MONTHLY;BYMONTHDAY=6', '2026-12-06')],
    ['Pay bills every 15th', every('Pay bills', 'FREQ=MONTHLY;BYMONTHDAY=15', '2026-12-15')],
    ['Pay bills every 3rd', every('Pay bills', 'FREQ=MONTHLY;BYMONTHDAY=3', '2026-12-03')],
    [
      'Pay bills every 2 months on the 15th',
      every('Pay bills', 'FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=15', '2026-12-15'),
    ],
    ['Pay bills every month on the last day', every('Pay bills', 'FREQ=MONTHLY;BYMONTHDAY=-1', '2026-11-30')],
    ['Pay bills every last day', every('Pay bills', 'FREQ=MONTHLY;BYMONTHDAY=-1', '2026-11-30')],
    [
      'Pay bills every month on the 15th at 10am',
      every('Pay bills', 'FREQ=MONTHLY;BYMONTHDAY=15', '2026-12-15', '2026-12-15T15:00:00.000Z'),
    ],
    ['Pay bills every quarter', every('Pay bills', 'FREQ=MONTHLY;INTERVAL=3', '2026-11-25')],
    ['Pay bills every 6 months', every('Pay bills', 'FREQ=MONTHLY;INTERVAL=6', '2026-11-25')],
    ['Rent every month starting dec 1', every('Rent', 'FREQ=MONTHLY', '2026-12-01')],
    ['Rent every month starting on dec 1', every('Rent', 'FREQ=MONTHLY', '2026-12-01')],
    ['Rent every month from jan 1', every('Rent', 'FREQ=MONTHLY', '2027-01-01')],
    ['Lunch every last friday', every('Lunch', 'FREQ=MONTHLY;BYDAY=-1FR', '2026-11-27')],
    ['Lunch every last fri', every('Lunch', 'FREQ=MONTHLY;BYDAY=-1FR', '2026-11-27')],
    ['Lunch every month on the last friday', every('Lunch', 'FREQ=MONTHLY;BYDAY=-1FR', '2026-11-27')],
    ['Lunch every first monday', every('Lunch', 'FREQ=MONTHLY;BYDAY=1MO', '2026-12-07')],
    ['Lunch every 1st monday', every('Lunch', 'FREQ=MONTHLY;BYDAY=1MO', '2026-12-07')],
    ['Lunch every second tuesday', every('Lunch', 'FREQ=MONTHLY;BYDAY=2TU', '2026-12-08')],
    ['Lunch every 2nd tuesday', every('Lunch', 'FREQ=MONTHLY;BYDAY=2TU', '2026-12-08')],
    ['Lunch every third wednesday', every('Lunch', 'FREQ=MONTHLY;BYDAY=3WE', '2026-12-16')],
    ['Lunch every 4th thursday', every('Lunch', 'FREQ=MONTHLY;BYDAY=4TH', '2026-11-26')],
    // No fifth Saturday in November or December 2026: January 2027 has five.
    ['Lunch every fifth saturday', every('Lunch', 'FREQ=MONTHLY;BYDAY=5SA', '2027-01-30')],
    // Yearly rules.
    ['Anniversary every year', every('Anniversary', 'FREQ=YEARLY', '2026-11-25')],
    ['Anniversary yearly', every('Anniversary', 'FREQ=YEARLY', '2026-11-25')],
    ['Anniversary annually', every('Anniversary', 'FREQ=YEARLY', '2026-11-25')],
    ['Renew every 2 years', every('Renew', 'FREQ=YEARLY;INTERVAL=2', '2026-11-25')],
    ['Birthday every year on dec 24', every('Birthday', 'FREQ=YEARLY', '2026-12-24')],
    ['Birthday every dec 24', every('Birthday', 'FREQ=YEARLY', '2026-12-24')],
    ['Birthday every 24th december', every('Birthday', 'FREQ=YEARLY', '2026-12-24')],
    // 09:00 has passed today, and the next 25 November is a year on.
    [
      'Birthday every year at 9am',
      every('Birthday', 'FREQ=YEARLY', '2027-11-25', '2027-11-25T14:00:00.000Z'),
    ],
    // An adverb that opens a longer title names the thing.
    ['Weekly review', text('Weekly review')],
    ['Daily standup notes', text('Daily standup notes')],
    ['Everyday carry', text('Everyday carry')],
    ['Monthly report tomorrow', on('Monthly report', '2026-11-26')],
    // Priorities, #parent, @person, +label.
    ['Fix login p1', { title: 'Fix login', priority: 1 }],
    ['Fix login p4', { title: 'Fix login', priority: 4 }],
    ['Fix login P2', { title: 'Fix login', priority: 2 }],
    ['Fix p3 login', { title: 'Fix login', priority: 3 }],
    ['Email p5', text('Email p5')],
    ['Plan p2 p3', { title: 'Plan p3', priority: 2 }],
    ['Fix #Work', { title: 'Fix', parent: 'Work' }],
    ['Fix #Home-Reno', { title: 'Fix', parent: 'Home-Reno' }],
    ['Ask @sam', { title: 'Ask', assignee: 'sam' }],
    ['Ask @sam @kim', { title: 'Ask @kim', assignee: 'sam' }],
    ['Buy +errand', { title: 'Buy', labels: ['errand'] }],
    ['Buy +errand +home', { title: 'Buy', labels: ['errand', 'home'] }],
    ['Buy +errand +Errand', { title: 'Buy +Errand', labels: ['errand'] }],
    ['a+b stays', text('a+b stays')],
    ['email me@example.com', text('email me@example.com')],
    ['C# tutorial', text('C# tutorial')],
    ['p1 Call mom tomorrow', { ...on('Call mom', '2026-11-26'), priority: 1 }],
    [
      'Fix login bug p1 #Work @sam +urgent tomorrow 9am',
      {
        ...on('Fix login bug', '2026-11-26', '2026-11-26T14:00:00.000Z'),
        priority: 1,
        parent: 'Work',
        assignee: 'sam',
        labels: ['urgent'],
      },
    ],
    [
      'Review every friday p2 #Work',
      { ...every('Review', 'FREQ=WEEKLY;BYDAY=FR', '2026-11-27'), priority: 2, parent: 'Work' },
    ],
    // Words that belong to the title stay there.
    ["Read Tomorrow's paper", text("Read Tomorrow's paper")],
    ["Tomorrow's meeting notes", text("Tomorrow's meeting notes")],
    ["Today's agenda", text("Today's agenda")],
    ['March of the penguins', text('March of the penguins')],
    ['Watch March of the Penguins', text('Watch March of the Penguins')],
    ['May Day party', text('May Day party')],
    ['May the force be with you', text('May the force be with you')],
    ['I may go', text('I may go')],
    ['Review march report', text('Review march report')],
    ['Wear sun cream', text('Wear sun cream')],
    ['Sat nav update', text('Sat nav update')],
    ['Mar the paint', text('Mar the paint')],
    ['Call Jan', text('Call Jan')],
    ["Jan's birthday gift", text("Jan's birthday gift")],
    ['Call April', text('Call April')],
    ['Email June', text('Email June')],
    ['Call tom', text('Call tom')],
    ['Wednesday Addams costume', text('Wednesday Addams costume')],
    ['Watch Friday Night Lights', text('Watch Friday Night Lights')],
    ['Read The Day After Tomorrow', text('Read The Day After Tomorrow')],
    ['Mon Cheri chocolates', text('Mon Cheri chocolates')],
    ['A second opinion', text('A second opinion')],
    ['Wait a second', text('Wait a second')],
    ['Second draft', text('Second draft')],
    ['Noon prayer', text('Noon prayer')],
    ['The Midnight Library', text('The Midnight Library')],
    ['Now or never', text('Now or never')],
    ["Eat at Joe's", text("Eat at Joe's")],
    ['Meeting at the office', text('Meeting at the office')],
    ['Check in with Will', text('Check in with Will')],
    ['Buy 2 apples', text('Buy 2 apples')],
    ['Fix 2 bugs', text('Fix 2 bugs')],
    ['Call 911', text('Call 911')],
    ['Fix issue 42', text('Fix issue 42')],
    ['Room 101', text('Room 101')],
    ['Version 2.0 release', text('Version 2.0 release')],
    ['Listen to 1984', text('Listen to 1984')],
    ['Watch 24', text('Watch 24')],
    ['Next steps', text('Next steps')],
    ['Every breath you take', text('Every breath you take')],
    ['Everybody dance', text('Everybody dance')],
    ['Daily Mail subscription', text('Daily Mail subscription')],
    ['Weekly Standard', text('Weekly Standard')],
    ['Pills every 8 hours', text('Pills every 8 hours')],
    ['Ping every 30 minutes', text('Ping every 30 minutes')],
    ['Stand up every hour', text('Stand up every hour')],
  ],
};

// Saturday 28 November 2026, 10:00 in New York: 'next Saturday' said on a Saturday is a week on.
const SATURDAY: Moment = {
  name: 'Saturday 28 Nov 2026, 10:00 New York',
  now: '2026-11-28T15:00:00Z',
  timeZone: 'America/New_York',
  rows: [
    ['Hike next saturday', on('Hike', '2026-12-05')],
    ['Hike next Saturday', on('Hike', '2026-12-05')],
    ['Hike next saturday at 8am', on('Hike', '2026-12-05', '2026-12-05T13:00:00.000Z')],
    ['Hike saturday', on('Hike', '2026-11-28')],
    ['Hike this saturday', on('Hike', '2026-11-28')],
    ['Hike on sat', on('Hike', '2026-11-28')],
    ['Hike sunday', on('Hike', '2026-11-29')],
    ['Hike next sunday', on('Hike', '2026-12-06')],
    ['Hike next monday', on('Hike', '2026-11-30')],
    ['Hike next friday', on('Hike', '2026-12-04')],
    ['Hike next week', on('Hike', '2026-12-05')],
    ['Hike tomorrow', on('Hike', '2026-11-29')],
    ['Hike every saturday', every('Hike', 'FREQ=WEEKLY;BYDAY=SA', '2026-11-28')],
    [
      'Hike every saturday at 9am',
      every('Hike', 'FREQ=WEEKLY;BYDAY=SA', '2026-12-05', '2026-12-05T14:00:00.000Z'),
    ],
    ['Hike every weekend', every('Hike', 'FREQ=WEEKLY;BYDAY=SA,SU', '2026-11-28')],
    ['Hike every weekday', every('Hike', WEEKDAYS, '2026-11-30')],
  ],
};

// New York leaves summer time on Sunday 1 November 2026 (02:00 EDT becomes 01:00 EST): 09:00 is
// 13:00Z before and 14:00Z after.
const NEW_YORK_AUTUMN: Moment = {
  name: 'Thursday 29 Oct 2026, 10:00 New York (EDT), before the November change',
  now: '2026-10-29T14:00:00Z',
  timeZone: 'America/New_York',
  rows: [
    ['Call tomorrow 9am', on('Call', '2026-10-30', '2026-10-30T13:00:00.000Z')],
    ['Call sat 9am', on('Call', '2026-10-31', '2026-10-31T13:00:00.000Z')],
    ['Call sun 9am', on('Call', '2026-11-01', '2026-11-01T14:00:00.000Z')],
    ['Call mon 9am', on('Call', '2026-11-02', '2026-11-02T14:00:00.000Z')],
    ['Call next thursday 9am', on('Call', '2026-11-05', '2026-11-05T14:00:00.000Z')],
    ['Call nov 2 at 6pm', on('Call', '2026-11-02', '2026-11-02T23:00:00.000Z')],
    ['Standup every day at 9am', every('Standup', 'FREQ=DAILY', '2026-10-30', '2026-10-30T13:00:00.000Z')],
    [
      'Standup every sunday at 9am',
      every('Standup', 'FREQ=WEEKLY;BYDAY=SU', '2026-11-01', '2026-11-01T14:00:00.000Z'),
    ],
  ],
};

// New York enters summer time on Sunday 14 March 2027 (02:00 EST becomes 03:00 EDT): 09:00 is
// 14:00Z before and 13:00Z after.
const NEW_YORK_SPRING: Moment = {
  name: 'Thursday 11 Mar 2027, 10:00 New York (EST), before the March change',
  now: '2027-03-11T15:00:00Z',
  timeZone: 'America/New_York',
  rows: [
    ['Call tomorrow 9am', on('Call', '2027-03-12', '2027-03-12T14:00:00.000Z')],
    ['Call sat 9am', on('Call', '2027-03-13', '2027-03-13T14:00:00.000Z')],
    ['Call sun 9am', on('Call', '2027-03-14', '2027-03-14T13:00:00.000Z')],
    ['Call mon 9am', on('Call', '2027-03-15', '2027-03-15T13:00:00.000Z')],
    ['Taxes mar 15 9am', on('Taxes', '2027-03-15', '2027-03-15T13:00:00.000Z')],
    ['Standup every weekday at 9am', every('Standup', WEEKDAYS, '2027-03-12', '2027-03-12T14:00:00.000Z')],
  ],
};

// Berlin leaves summer time on Sunday 25 October 2026 (03:00 CEST becomes 02:00 CET): 09:00 is
// 07:00Z before and 08:00Z after.
const BERLIN_AUTUMN: Moment = {
  name: 'Thursday 22 Oct 2026, 10:00 Berlin (CEST), before the October change',
  now: '2026-10-22T08:00:00Z',
  timeZone: 'Europe/Berlin',
  rows: [
    ['Call tomorrow 18:00', on('Call', '2026-10-23', '2026-10-23T16:00:00.000Z')],
    ['Call sat 9am', on('Call', '2026-10-24', '2026-10-24T07:00:00.000Z')],
    ['Call sun 9am', on('Call', '2026-10-25', '2026-10-25T08:00:00.000Z')],
    ['Call mon 9am', on('Call', '2026-10-26', '2026-10-26T08:00:00.000Z')],
    ['Standup every day at 9am', every('Standup', 'FREQ=DAILY', '2026-10-23', '2026-10-23T07:00:00.000Z')],
    [
      'Standup every monday at 9:30',
      every('Standup', 'FREQ=WEEKLY;BYDAY=MO', '2026-10-26', '2026-10-26T08:30:00.000Z'),
    ],
  ],
};

// Berlin enters summer time on Sunday 28 March 2027 (02:00 CET becomes 03:00 CEST): 09:00 is
// 08:00Z before and 07:00Z after.
const BERLIN_SPRING: Moment = {
  name: 'Thursday 25 Mar 2027, 10:00 Berlin (CET), before the March change',
  now: '2027-03-25T09:00:00Z',
  timeZone: 'Europe/Berlin',
  rows: [
    ['Call sat 9am', on('Call', '2027-03-27', '2027-03-27T08:00:00.000Z')],
    ['Call sun 9am', on('Call', '2027-03-28', '2027-03-28T07:00:00.000Z')],
    ['Call mon 9am', on('Call', '2027-03-29', '2027-03-29T07:00:00.000Z')],
    ['Call next fri 5pm', on('Call', '2027-04-02', '2027-04-02T15:00:00.000Z')],
    ['Standup every weekday at 9am', every('Standup', WEEKDAYS, '2027-03-26', '2027-03-26T08:00:00.000Z')],
  ],
};

const MOMENTS = [WEDNESDAY, SATURDAY, NEW_YORK_AUTUMN, NEW_YORK_SPRING, BERLIN_AUTUMN, BERLIN_SPRING];

const readAt = (moment: Pick<Moment, 'now' | 'timeZone'>, phrase: string) =>
  readQuickAdd(phrase, { now: new Date(moment.now), timeZone: moment.timeZone });

/** The next `n` occurrences after the reading's first: [due_date, remind_at] each. */
function series(moment: Pick<Moment, 'now' | 'timeZone'>, phrase: string, n: number) {
  const reading = readAt(moment, phrase);
  let item: OccurrenceSource = {
    uuid: '7d0e3a52-5a3c-4b8e-9d47-2f1c6b0a9e11',
    series_uuid: null,
    title: reading.title,
    description: null,
    type: 'task',
    parent_id: null,
    assigned_to: null,
    due_date: reading.due_date,
    remind_at: reading.remind_at,
    recurrence: reading.recurrence,
    time_zone: moment.timeZone,
  };
  const out: [string | null, string | null][] = [];
  for (let i = 0; i < n; i++) {
    const next = nextOccurrence(item);
    if (!next) break;
    out.push([next.due_date, next.remind_at]);
    item = { ...item, ...next };
  }
  return out;
}

describe('the quick-add phrase table', () => {
  it('holds at least 200 phrases', () => {
    expect(MOMENTS.reduce((n, m) => n + m.rows.length, 0)).toBeGreaterThanOrEqual(200);
  });

  for (const moment of MOMENTS) {
    describe(moment.name, () => {
      it.each(moment.rows)('reads %j', (phrase, expected) => {
        const { parts, ...reading } = readAt(moment, phrase);
        expect(reading).toEqual({ ...EMPTY, ...expected });
        // Each part stands where it says, and a phrase read as text has none.
        for (const p of parts) expect(phrase.slice(p.start, p.end)).toBe(p.text);
        if (Object.keys(expected).length === 1) expect(parts).toEqual([]);
      });
    });
  }
});

describe('the chips of a rule read from words', () => {
  it("say the rule, its hour when the words name one, and the rule's last day", () => {
    const labels = (phrase: string) => readAt(WEDNESDAY, phrase).parts.map((p) => [p.kind, p.text, p.label]);
    expect(labels('Stretch every morning')).toEqual([['repeat', 'every morning', 'Every day, 09:00']]);
    expect(labels('Stretch every day until dec 31')).toEqual([
      ['repeat', 'every day', 'Every day'],
      ['repeat', 'until dec 31', 'Until Thu 31 Dec'],
    ]);
    expect(labels('Rent every month starting dec 1')).toEqual([
      ['repeat', 'every month', 'Every month'],
      ['date', 'starting dec 1', 'Tue 1 Dec'],
    ]);
  });

  it('removing the repeat chip leaves its words, and its first and last days, in the title', () => {
    const first = readAt(WEDNESDAY, 'Rent every month starting dec 1 until dec 31');
    const again = readQuickAdd('Rent every month starting dec 1 until dec 31', {
      now: new Date(WEDNESDAY.now),
      timeZone: WEDNESDAY.timeZone,
      dismissed: new Set([first.parts[0]!.key]),
    });
    expect(again).toMatchObject({
      title: 'Rent every month starting dec 1 until dec 31',
      due_date: null,
      recurrence: null,
    });
  });
});

describe('a repeat read from words keeps its wall-clock time across daylight-saving changes (O5)', () => {
  it('New York, November: 09:00 EDT (13:00Z) becomes 09:00 EST (14:00Z)', () => {
    expect(series(NEW_YORK_AUTUMN, 'Standup every day at 9am', 4)).toEqual([
      ['2026-10-31', '2026-10-31T13:00:00.000Z'],
      ['2026-11-01', '2026-11-01T14:00:00.000Z'],
      ['2026-11-02', '2026-11-02T14:00:00.000Z'],
      ['2026-11-03', '2026-11-03T14:00:00.000Z'],
    ]);
  });

  it('New York, March: 09:00 EST (14:00Z) becomes 09:00 EDT (13:00Z)', () => {
    expect(series(NEW_YORK_SPRING, 'Standup every weekday at 9am', 3)).toEqual([
      ['2027-03-15', '2027-03-15T13:00:00.000Z'],
      ['2027-03-16', '2027-03-16T13:00:00.000Z'],
      ['2027-03-17', '2027-03-17T13:00:00.000Z'],
    ]);
  });

  it('Berlin, October: 09:00 CEST (07:00Z) becomes 09:00 CET (08:00Z)', () => {
    expect(series(BERLIN_AUTUMN, 'Standup every day at 9am', 3)).toEqual([
      ['2026-10-24', '2026-10-24T07:00:00.000Z'],
      ['2026-10-25', '2026-10-25T08:00:00.000Z'],
      ['2026-10-26', '2026-10-26T08:00:00.000Z'],
    ]);
  });

  it('Berlin, March: 09:00 CET (08:00Z) becomes 09:00 CEST (07:00Z)', () => {
    expect(series(BERLIN_SPRING, 'Standup every weekday at 9am', 2)).toEqual([
      ['2027-03-29', '2027-03-29T07:00:00.000Z'],
      ['2027-03-30', '2027-03-30T07:00:00.000Z'],
    ]);
  });
});

describe('the dates a rule read from words gives next', () => {
  it('every last friday: the last Friday of each month', () => {
    expect(series(WEDNESDAY, 'Lunch every last friday', 3).map(([d]) => d)).toEqual([
      '2026-12-25',
      '2027-01-29',
      '2027-02-26',
    ]);
  });

  it('every month on the 31st skips the months without one (RFC 5545)', () => {
    expect(series(WEDNESDAY, 'Pay every month on the 31st', 3).map(([d]) => d)).toEqual([
      '2027-01-31',
      '2027-03-31',
      '2027-05-31',
    ]);
  });

  it('every month on the last day: 31, 28, 31', () => {
    expect(series(WEDNESDAY, 'Pay every month on the last day', 3).map(([d]) => d)).toEqual([
      '2026-12-31',
      '2027-01-31',
      '2027-02-28',
    ]);
  });

  it('every 2 weeks on mon: every other Monday', () => {
    expect(series(WEDNESDAY, 'Backups every 2 weeks on mon', 3).map(([d]) => d)).toEqual([
      '2026-12-14',
      '2026-12-28',
      '2027-01-11',
    ]);
  });

  it('every weekday skips the weekend', () => {
    expect(series(SATURDAY, 'Standup every weekday', 6).map(([d]) => d)).toEqual([
      '2026-12-01',
      '2026-12-02',
      '2026-12-03',
      '2026-12-04',
      '2026-12-07',
      '2026-12-08',
    ]);
  });

  // RFC 5545 §3.3.10's WKST example, from Tuesday 5 August 1997: with weeks from Monday the dates
  // are 5, 10, 19, 24 August; with weeks from Sunday 5, 17, 19, 31.
  const AUGUST_1997 = { now: '1997-08-05T13:00:00Z', timeZone: 'America/New_York' };
  it('every 2 weeks on tue and sun, weeks from Monday (WKST=MO)', () => {
    expect(readAt(AUGUST_1997, 'Swim every 2 weeks on tue and sun').due_date).toBe('1997-08-05');
    expect(series(AUGUST_1997, 'Swim every 2 weeks on tue and sun', 3).map(([d]) => d)).toEqual([
      '1997-08-10',
      '1997-08-19',
      '1997-08-24',
    ]);
  });

  it('every 2 weeks on tue and sun, week starts sunday (WKST=SU)', () => {
    const phrase = 'Swim every 2 weeks on tue and sun, week starts sunday';
    expect(readAt(AUGUST_1997, phrase).due_date).toBe('1997-08-05');
    expect(series(AUGUST_1997, phrase, 3).map(([d]) => d)).toEqual([
      '1997-08-17',
      '1997-08-19',
      '1997-08-31',
    ]);
  });
});
