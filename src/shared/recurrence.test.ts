import fc from 'fast-check';
import { rrulestr } from 'rrule';
import { describe, expect, it } from 'vitest';
import { nextDueDate, nextOccurrence, occurrenceUuid } from './recurrence';
import {
  customRule,
  formatRecurrence,
  parseRecurrence,
  presetOf,
  presetRule,
  RECURRENCE_FREQS,
  type RecurrenceRule,
  recurrenceProblem,
  WEEKDAY_CODES,
} from './recurrenceRule';
import { recurrenceSummary } from './recurrenceText';

const dateArb = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2090-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

/** Random rules of the subset §5 allows (no COUNT: each occurrence carries what is left of it). */
const ruleArb = fc
  .record({
    freq: fc.constantFrom(...RECURRENCE_FREQS),
    interval: fc.integer({ min: 1, max: 30 }),
    days: fc.subarray([...WEEKDAY_CODES]),
    monthDays: fc.subarray([1, 2, 10, 15, 28, 29, 30, 31, -1], { maxLength: 3 }),
    until: fc.option(dateArb, { nil: null }),
    wkst: fc.constantFrom(null, ...WEEKDAY_CODES),
  })
  .map(({ freq, interval, days, monthDays, until, wkst }) =>
    formatRecurrence({
      freq,
      interval,
      byDay: days.map((day) => ({ n: null, day })),
      byMonthDay: freq === 'MONTHLY' || freq === 'YEARLY' ? monthDays : [],
      count: null,
      until,
      wkst,
    }),
  );

/** Rules as anyone might type them: numbered weekdays of any size, month days, ends and week starts mixed freely. */
const wildRuleArb = fc
  .record({
    freq: fc.constantFrom(...RECURRENCE_FREQS),
    interval: fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 999 })),
    days: fc.array(
      fc.record({
        n: fc.option(fc.oneof(fc.integer({ min: -6, max: 6 }), fc.integer({ min: -55, max: 55 })), {
          nil: null,
        }),
        day: fc.constantFrom(...WEEKDAY_CODES),
      }),
      { maxLength: 3 },
    ),
    monthDays: fc.array(fc.oneof(fc.integer({ min: 1, max: 31 }), fc.integer({ min: -31, max: -1 })), {
      maxLength: 3,
    }),
    wkst: fc.option(fc.constantFrom(...WEEKDAY_CODES), { nil: null }),
    until: fc.option(dateArb, { nil: null }),
  })
  .map(({ freq, interval, days, monthDays, wkst, until }) =>
    [
      `FREQ=${freq}`,
      interval === 1 ? null : `INTERVAL=${interval}`,
      days.length === 0
        ? null
        : `BYDAY=${days.map((d) => `${d.n === null || d.n === 0 ? '' : d.n}${d.day}`).join(',')}`,
      monthDays.length === 0 ? null : `BYMONTHDAY=${monthDays.join(',')}`,
      wkst === null ? null : `WKST=${wkst}`,
      until === null ? null : `UNTIL=${until.replaceAll('-', '')}`,
    ]
      .filter((p) => p !== null)
      .join(';'),
  );

const uuidArb = fc.uuid({ version: 4 });

const source = (uuid: string, due: string, recurrence: string, series: string | null = null) => ({
  uuid,
  series_uuid: series,
  title: 'Water the plants',
  description: 'Ferns',
  type: 'todo' as const,
  parent_id: 7,
  assigned_to: 3,
  due_date: due,
  remind_at: `${due}T08:30:00.000Z`,
  recurrence,
});

describe('recurrence', () => {
  it('the next date is after the current one and is rrule’s own next date for the rule', () => {
    fc.assert(
      fc.property(ruleArb, dateArb, (rule, due) => {
        const parsed = parseRecurrence(rule);
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        const next = nextDueDate(parsed.rule, due);
        const dtstart = new Date(`${due}T00:00:00Z`);
        const expected = rrulestr(rule, { dtstart }).after(dtstart, false);
        expect(next).toBe(expected ? expected.toISOString().slice(0, 10) : null);
        if (next !== null) expect(next > due).toBe(true);
      }),
      { numRuns: 120 },
    );
  });

  it('N1: the uuid is a pure function of the series and the new due date', () => {
    fc.assert(
      fc.property(uuidArb, uuidArb, ruleArb, dateArb, (series, other, rule, due) => {
        const first = nextOccurrence(source(series, due, rule));
        if (first === null) return;
        // The same series and date from any occurrence, on any device, at any time: the same uuid.
        expect(first.uuid).toBe(occurrenceUuid(series, first.due_date));
        expect(nextOccurrence(source(series, due, rule))).toEqual(first);
        const fromLater = nextOccurrence(source(other, due, rule, series));
        expect(fromLater?.uuid).toBe(first.uuid);
        expect(first.series_uuid).toBe(series);
        // Another series or another date is another item.
        if (other !== series) expect(occurrenceUuid(other, first.due_date)).not.toBe(first.uuid);
        expect(occurrenceUuid(series, due)).not.toBe(first.uuid);
      }),
      { numRuns: 80 },
    );
  });

  it('copies title, description, parent, assignee and rule, and moves the reminder by the same days', () => {
    const next = nextOccurrence(
      source('0b9a2f4c-3f7e-4d2a-9a51-6c1e2b3d4f5a', '2031-03-03', 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH'),
    );
    expect(next).toMatchObject({
      title: 'Water the plants',
      description: 'Ferns',
      parent_id: 7,
      assigned_to: 3,
      status: 'pending',
      due_date: '2031-03-06',
      remind_at: '2031-03-06T08:30:00.000Z',
      recurrence: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH',
    });
  });

  it('ends the series quietly when the rule yields no further date, and counts COUNT down', () => {
    const uuid = '0b9a2f4c-3f7e-4d2a-9a51-6c1e2b3d4f5a';
    expect(nextOccurrence(source(uuid, '2031-03-03', 'FREQ=DAILY;UNTIL=20310303'))).toBeNull();
    expect(nextOccurrence(source(uuid, '2031-03-03', 'FREQ=DAILY;COUNT=1'))).toBeNull();
    expect(nextOccurrence(source(uuid, '2031-03-03', 'FREQ=DAILY;COUNT=3'))?.recurrence).toBe(
      'FREQ=DAILY;COUNT=2',
    );
    expect(nextOccurrence({ ...source(uuid, '2031-03-03', 'FREQ=DAILY'), due_date: null })).toBeNull();
  });

  it('refuses unreadable rules, rules over 255 characters and rules that have ended, with a message', () => {
    for (const bad of ['', 'every day', 'FREQ=HOURLY', 'FREQ=DAILY;FREQ=DAILY', 'FREQ=DAILY;INTERVAL=0']) {
      const parsed = parseRecurrence(bad);
      expect(parsed.ok, bad).toBe(false);
    }
    expect(parseRecurrence(`FREQ=DAILY;${'BYDAY=MO;'.repeat(30)}`)).toMatchObject({
      ok: false,
      message: 'The repeat rule must be 255 characters or less.',
    });
    expect(parseRecurrence('FREQ=DAILY;COUNT=0')).toMatchObject({ ok: false });
    const item = { type: 'todo', due_date: '2031-01-01', recurrence: 'FREQ=DAILY;UNTIL=20300101' };
    expect(recurrenceProblem(item, '2030-06-01')).toBe('The repeat rule ends in the past (UNTIL).');
    expect(recurrenceProblem({ ...item, recurrence: 'FREQ=DAILY', due_date: null }, '2030-06-01')).toBe(
      'A repeating item needs a due date.',
    );
    expect(recurrenceProblem({ ...item, recurrence: 'FREQ=DAILY', type: 'campaign' }, '2030-06-01')).toBe(
      'Only tasks and todos can repeat.',
    );
  });

  it('accepts any valid WKST, keeps it when it differs from Monday, and steps by it (WKST)', () => {
    for (const day of WEEKDAY_CODES) {
      const parsed = parseRecurrence(`FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;WKST=${day}`);
      expect(parsed.ok, day).toBe(true);
    }
    expect(parseRecurrence('FREQ=WEEKLY;WKST=XX')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/WKST/),
    });
    // RFC 5545's own example: every other week on Tuesday and Sunday from Tuesday 1997-08-05.
    const monday = parseRecurrence('FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;WKST=MO');
    const sunday = parseRecurrence('rrule:freq=weekly;interval=2;byday=tu,su;wkst=su');
    if (!monday.ok || !sunday.ok) throw new Error('refused');
    expect(formatRecurrence(monday.rule)).toBe('FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU');
    expect(formatRecurrence(sunday.rule)).toBe('FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;WKST=SU');
    expect(nextDueDate(monday.rule, '1997-08-05')).toBe('1997-08-10');
    expect(nextDueDate(sunday.rule, '1997-08-05')).toBe('1997-08-17');
    expect(recurrenceSummary('FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;WKST=SU')).toBe('Every 2 weeks on Tue, Sun');
  });

  it('refuses rules that can never give a date, saying why (F2)', () => {
    const refused: [string, RegExp][] = [
      ['FREQ=MONTHLY;BYDAY=53MO', /from 1 to 5/],
      ['FREQ=MONTHLY;BYDAY=-6TU', /from 1 to 5/],
      ['FREQ=YEARLY;BYDAY=54MO', /BYDAY/],
      ['FREQ=WEEKLY;BYDAY=1MO', /MONTHLY or YEARLY/],
      ['FREQ=DAILY;BYDAY=-1FR', /MONTHLY or YEARLY/],
      ['FREQ=MONTHLY;BYDAY=MO,1FR', /not both/],
      ['FREQ=MONTHLY;BYDAY=-5FR;BYMONTHDAY=13', /never/],
      ['FREQ=MONTHLY;BYDAY=1MO;BYMONTHDAY=8,-1', /never/],
      ['FREQ=YEARLY;BYDAY=53MO;BYMONTHDAY=1', /never/],
    ];
    for (const [rule, message] of refused) {
      const parsed = parseRecurrence(rule);
      expect(parsed.ok, rule).toBe(false);
      if (!parsed.ok) expect(parsed.message, rule).toMatch(message);
    }
    for (const rule of [
      'FREQ=MONTHLY;BYDAY=5MO',
      'FREQ=MONTHLY;BYDAY=-5FR;BYMONTHDAY=2',
      'FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13',
      'FREQ=YEARLY;BYDAY=53MO',
      'FREQ=YEARLY;BYDAY=-53SU;BYMONTHDAY=1',
    ])
      expect(parseRecurrence(rule).ok, rule).toBe(true);
    // Only the due date decides this one: every 12 months from February never meets a 31st.
    const item = {
      type: 'todo',
      due_date: '2030-02-10',
      recurrence: 'FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=31',
    };
    expect(recurrenceProblem(item, '2030-01-01')).toBe('The repeat rule gives no date after the due date.');
    expect(recurrenceProblem({ ...item, due_date: '2030-01-10' }, '2030-01-01')).toBeNull();
  });

  it('answers at once, with no next date, for a rule that never gives one (F2)', () => {
    const never: RecurrenceRule[] = [
      {
        freq: 'MONTHLY',
        interval: 1,
        byDay: [{ n: 53, day: 'MO' }],
        byMonthDay: [],
        count: null,
        until: null,
        wkst: null,
      },
      {
        freq: 'MONTHLY',
        interval: 1,
        byDay: [{ n: -5, day: 'FR' }],
        byMonthDay: [13],
        count: null,
        until: null,
        wkst: null,
      },
      { freq: 'MONTHLY', interval: 12, byDay: [], byMonthDay: [31], count: null, until: null, wkst: null },
      {
        freq: 'DAILY',
        interval: 7,
        byDay: [{ n: null, day: 'TU' }],
        byMonthDay: [],
        count: null,
        until: null,
        wkst: null,
      },
    ];
    for (const rule of never) {
      const started = performance.now();
      expect(nextDueDate(rule, '2030-02-04'), formatRecurrence(rule)).toBeNull();
      expect(performance.now() - started, formatRecurrence(rule)).toBeLessThan(250);
    }
    const uuid = '0b9a2f4c-3f7e-4d2a-9a51-6c1e2b3d4f5a';
    const started = performance.now();
    expect(nextOccurrence(source(uuid, '2030-02-04', 'FREQ=MONTHLY;BYDAY=-5FR;BYMONTHDAY=13'))).toBeNull();
    expect(performance.now() - started).toBeLessThan(250);
  });

  it('finds a next date, quickly, for every rule and due date the checks accept (F2)', () => {
    fc.assert(
      // An UNTIL may end a series on purpose; here only the rule's own days may stand in its way.
      fc.property(
        wildRuleArb.map((r) => r.replace(/;UNTIL=\d+/, '')),
        dateArb,
        (rule, due) => {
          const parsed = parseRecurrence(rule);
          fc.pre(parsed.ok);
          fc.pre(recurrenceProblem({ type: 'todo', due_date: due, recurrence: rule }, '2000-01-01') === null);
          const started = performance.now();
          const next = nextOccurrence(source('0b9a2f4c-3f7e-4d2a-9a51-6c1e2b3d4f5a', due, rule));
          expect(performance.now() - started, rule).toBeLessThan(250);
          expect(next?.due_date, `${rule} from ${due}`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
          expect(next!.due_date > due).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('steps numbered weekdays, month days and week starts as rrule does (F2)', () => {
    fc.assert(
      fc.property(wildRuleArb, dateArb, (rule, due) => {
        const parsed = parseRecurrence(rule);
        fc.pre(parsed.ok);
        const next = nextDueDate(parsed.rule, due);
        // A rule with no date left would send rrule to the year 9999; those are the test above.
        fc.pre(next !== null);
        const dtstart = new Date(`${due}T00:00:00Z`);
        const expected = rrulestr(formatRecurrence(parsed.rule), { dtstart }).after(dtstart, false);
        expect(next, `${rule} from ${due}`).toBe(expected ? expected.toISOString().slice(0, 10) : null);
      }),
      { numRuns: 300 },
    );
  });

  it('reads rules back in words for the card', () => {
    expect(recurrenceSummary('FREQ=WEEKLY;INTERVAL=2;BYDAY=TH,MO')).toBe('Every 2 weeks on Mon, Thu');
    expect(recurrenceSummary('FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR')).toBe('Every weekday');
    expect(recurrenceSummary('FREQ=DAILY')).toBe('Every day');
    expect(recurrenceSummary('FREQ=MONTHLY;BYMONTHDAY=15')).toBe('Every month on the 15th');
    expect(recurrenceSummary('FREQ=YEARLY;COUNT=3')).toBe('Every year, 3 times');
    expect(recurrenceSummary('FREQ=DAILY;INTERVAL=3;UNTIL=20310101')).toBe('Every 3 days until 2031-01-01');
    expect(recurrenceSummary('FREQ=MONTHLY;BYDAY=-1FR')).toBe('Every month on last Fri');
    expect(recurrenceSummary(null)).toBeNull();
    expect(recurrenceSummary('nonsense')).toBeNull();
  });

  it('maps each preset to its rule and back on the item’s due date', () => {
    fc.assert(
      fc.property(
        dateArb,
        fc.constantFrom('daily', 'weekdays', 'weekly', 'monthly', 'yearly' as const),
        (due, p) => {
          expect(presetOf(presetRule(p, due), due)).toBe(p);
        },
      ),
    );
    expect(presetRule('weekly', '2031-03-06')).toBe('FREQ=WEEKLY;BYDAY=TH');
    expect(presetRule('monthly', '2031-03-06')).toBe('FREQ=MONTHLY;BYMONTHDAY=6');
    expect(customRule('WEEKLY', 2, ['TH', 'MO'])).toBe('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH');
    expect(presetOf('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO', '2031-03-06')).toBe('custom');
    expect(presetOf(null, '2031-03-06')).toBe('none');
  });
});

describe('a reminder in the hour the clocks skip (N11)', () => {
  // New York, 2027-03-14: 02:00 EST jumps to 03:00 EDT (07:00Z); 02:30 does not exist that day.
  const daily = (due_date: string, remind_at: string, recurrence = 'FREQ=DAILY') => ({
    uuid: '0b9a2f4c-3f7e-4d2a-9a51-6c1e2b3d4f5a',
    series_uuid: null,
    title: 'Feed the baby',
    description: null,
    type: 'todo' as const,
    parent_id: null,
    assigned_to: null,
    due_date,
    remind_at,
    recurrence,
    time_zone: 'America/New_York',
  });

  it('N11: a daily 02:30 reminder is 03:00 on the March change day and 02:30 again the day after', () => {
    // 02:30 EST on the 13th is 07:30Z.
    const skipped = nextOccurrence(daily('2027-03-13', '2027-03-13T07:30:00.000Z'))!;
    expect(skipped).toMatchObject({ due_date: '2027-03-14', remind_at: '2027-03-14T07:00:00.000Z' });
    const after = nextOccurrence({ ...daily(skipped.due_date, skipped.remind_at!, skipped.recurrence) })!;
    // 02:30 EDT on the 15th is 06:30Z; the rule carries no time any more.
    expect(after).toMatchObject({
      due_date: '2027-03-15',
      remind_at: '2027-03-15T06:30:00.000Z',
      recurrence: 'FREQ=DAILY',
    });
    expect(nextOccurrence(daily(after.due_date, after.remind_at!, after.recurrence))?.remind_at).toBe(
      '2027-03-16T06:30:00.000Z',
    );
  });

  it("N11: the skipped day's occurrence carries the series' time in its rule, which reads as its plain preset", () => {
    const skipped = nextOccurrence(daily('2027-03-13', '2027-03-13T07:30:00.000Z'))!;
    expect(skipped.recurrence).toBe('FREQ=DAILY;BYHOUR=2;BYMINUTE=30');
    expect(presetOf(skipped.recurrence, skipped.due_date)).toBe('daily');
    expect(recurrenceSummary(skipped.recurrence)).toBe('Every day');
    // A weekly rule keeps its other parts; COUNT counts down as before.
    const weekly = nextOccurrence(daily('2027-03-07', '2027-03-07T07:30:00.000Z', 'FREQ=WEEKLY;COUNT=3'))!;
    expect(weekly).toMatchObject({
      remind_at: '2027-03-14T07:00:00.000Z',
      recurrence: 'FREQ=WEEKLY;COUNT=2;BYHOUR=2;BYMINUTE=30',
    });
    expect(nextOccurrence(daily(weekly.due_date, weekly.remind_at!, weekly.recurrence))).toMatchObject({
      remind_at: '2027-03-21T06:30:00.000Z',
      recurrence: 'FREQ=WEEKLY;COUNT=1',
    });
  });

  it("N11: a reminder moved by hand on the skipped day is the series' time from then on", () => {
    // Moved to 09:00 EDT (13:00Z) on the 14th: the rule's 02:30 no longer speaks for it.
    const moved = daily('2027-03-14', '2027-03-14T13:00:00.000Z', 'FREQ=DAILY;BYHOUR=2;BYMINUTE=30');
    expect(nextOccurrence(moved)).toMatchObject({
      remind_at: '2027-03-15T13:00:00.000Z',
      recurrence: 'FREQ=DAILY',
    });
  });

  it('N11: BYHOUR and BYMINUTE read as one time, and a list or a minute alone is refused', () => {
    expect(parseRecurrence('FREQ=DAILY;BYHOUR=2;BYMINUTE=30')).toMatchObject({
      ok: true,
      rule: { at: { hour: 2, minute: 30 } },
    });
    expect(parseRecurrence('FREQ=DAILY;BYHOUR=2,3').ok).toBe(false);
    expect(parseRecurrence('FREQ=DAILY;BYMINUTE=30').ok).toBe(false);
    expect(parseRecurrence('FREQ=DAILY;BYHOUR=24').ok).toBe(false);
  });
});
