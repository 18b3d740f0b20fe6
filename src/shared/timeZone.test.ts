import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextOccurrence } from './recurrence';
import { deviceTimeZone, normalizeTimeZone, shiftWallClock, wallClockOf } from './timeZone';

const ZONES = ['America/New_York', 'Europe/Berlin', 'Australia/Sydney', 'Asia/Kolkata', 'UTC'] as const;
const HOUR = 3_600_000;
const dayMs = 86_400_000;

/** Every change of offset of one of ZONES from 2024 to 2035: the zone and the instant (to the hour). */
const CHANGES: (readonly [string, number])[] = (() => {
  const offset = (zone: string, at: number) =>
    Date.parse(`${wallClockOf(new Date(at).toISOString(), zone)}Z`) - at;
  const found: (readonly [string, number])[] = [];
  for (const zone of ZONES) {
    for (let day = Date.UTC(2024, 0, 1); day < Date.UTC(2036, 0, 1); day += dayMs) {
      if (offset(zone, day) === offset(zone, day + dayMs)) continue;
      let hour = day;
      while (offset(zone, hour + HOUR) === offset(zone, day)) hour += HOUR;
      found.push([zone, hour + HOUR]);
    }
  }
  return found;
})();

describe('time zones', () => {
  it('takes IANA names (spelled as the engine spells them) and UTC, and refuses anything else', () => {
    for (const zone of [...ZONES, 'Etc/GMT+5', 'America/Argentina/Buenos_Aires', 'Asia/Calcutta']) {
      expect(normalizeTimeZone(zone), zone).toBe(zone);
    }
    expect(normalizeTimeZone('america/new_york')).toBe('America/New_York');
    expect(normalizeTimeZone('utc')).toBe('UTC');
    for (const bad of [
      'Mars/Olympus',
      '',
      ' ',
      '+05:00',
      'UTC+5',
      'New York',
      '../etc/passwd',
      'x'.repeat(65),
    ]) {
      expect(normalizeTimeZone(bad), bad).toBeNull();
    }
  });

  it("names this device's zone, one the schema accepts", () => {
    const zone = deviceTimeZone();
    expect(normalizeTimeZone(zone)).toBe(zone);
  });

  it('N5: keeps 09:00 in New York at 09:00 across the autumn and spring changes', () => {
    // 09:00 EDT, a week later 09:00 EST: 13:00Z becomes 14:00Z.
    expect(shiftWallClock('2026-10-30T13:00:00.000Z', 7, 'America/New_York')).toBe(
      '2026-11-06T14:00:00.000Z',
    );
    expect(shiftWallClock('2027-03-12T14:00:00.000Z', 2, 'America/New_York')).toBe(
      '2027-03-14T13:00:00.000Z',
    );
    // Sydney's clocks go back in April and forward in October (southern hemisphere).
    expect(shiftWallClock('2026-04-03T22:00:00.000Z', 1, 'Australia/Sydney')).toBe(
      '2026-04-04T23:00:00.000Z',
    );
    expect(shiftWallClock('2026-10-02T23:00:00.000Z', 1, 'Australia/Sydney')).toBe(
      '2026-10-03T22:00:00.000Z',
    );
    // No daylight saving: a day is 24 hours.
    expect(shiftWallClock('2026-03-28T03:30:00.000Z', 1, 'Asia/Kolkata')).toBe('2026-03-29T03:30:00.000Z');
    expect(shiftWallClock('2026-03-28T03:30:00.000Z', 1, 'UTC')).toBe('2026-03-29T03:30:00.000Z');
    // No zone (an item from before the field): UTC, as before.
    expect(shiftWallClock('2026-10-30T13:00:00.000Z', 7, null)).toBe('2026-11-06T13:00:00.000Z');
  });

  it('N5: a time the clocks skip becomes the moment they jump, and a time they show twice the first of the two', () => {
    // 02:30 on 2027-03-14 does not exist in New York (02:00 EST → 03:00 EDT at 07:00Z).
    expect(shiftWallClock('2027-03-13T07:30:00.000Z', 1, 'America/New_York')).toBe(
      '2027-03-14T07:00:00.000Z',
    );
    // 01:30 on 2026-11-01 happens twice in New York: first in EDT (05:30Z), then in EST (06:30Z).
    expect(shiftWallClock('2026-10-31T05:30:00.000Z', 1, 'America/New_York')).toBe(
      '2026-11-01T05:30:00.000Z',
    );
    // 02:30 on 2026-03-29 does not exist in Berlin (02:00 CET → 03:00 CEST at 01:00Z).
    expect(shiftWallClock('2026-03-28T01:30:00.000Z', 1, 'Europe/Berlin')).toBe('2026-03-29T01:00:00.000Z');
  });

  it('N5: the next occurrence keeps the reminder’s wall-clock time in its zone, whatever zone and date (property)', () => {
    fc.assert(
      fc.property(
        // Any minute from 2024 to 2035, or one up to a week and three hours before a change of its
        // zone, so that the next reminder often falls on the change, in its skipped or repeated hour.
        fc.oneof(
          fc.tuple(
            fc.constantFrom(...ZONES),
            fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2035, 11, 31) }),
          ),
          fc
            .tuple(
              fc.constantFrom(...CHANGES),
              fc.integer({ min: 0, max: 7 }),
              fc.integer({ min: -180, max: 180 }),
            )
            .map(
              ([[zone, change], days, minutes]) => [zone, change - days * dayMs + minutes * 60_000] as const,
            ),
        ),
        fc.constantFrom(
          'FREQ=DAILY',
          'FREQ=WEEKLY',
          'FREQ=DAILY;INTERVAL=3',
          'FREQ=MONTHLY',
          'FREQ=WEEKLY;BYDAY=MO,FR',
        ),
        ([zone, at], rule) => {
          const remind = new Date(Math.floor(at / 60_000) * 60_000).toISOString();
          const before = wallClockOf(remind, zone);
          const due = before.slice(0, 10);
          const next = nextOccurrence({
            uuid: '0b9a2f4c-3f7e-4d2a-9a51-6c1e2b3d4f5a',
            series_uuid: null,
            title: 'Stand-up',
            description: null,
            type: 'todo',
            parent_id: null,
            assigned_to: null,
            due_date: due,
            remind_at: remind,
            recurrence: rule,
            time_zone: zone,
          });
          if (next === null || next.remind_at === null) throw new Error('no next occurrence');
          expect(next.time_zone).toBe(zone);
          const days = (Date.parse(`${next.due_date}T00:00:00Z`) - Date.parse(`${due}T00:00:00Z`)) / dayMs;
          const wanted = new Date(Date.parse(`${before}Z`) + days * dayMs).toISOString().slice(0, 23);
          const after = wallClockOf(next.remind_at, zone);
          const nextAt = Date.parse(next.remind_at);
          if (after === wanted) {
            // Shown twice (clocks set back): the first of the two.
            for (const earlier of [0.5, 1, 2])
              expect(wallClockOf(new Date(nextAt - earlier * HOUR).toISOString(), zone)).not.toBe(wanted);
          } else {
            // Skipped (clocks set forward): the moment of the jump, the first instant after the gap.
            expect(after > wanted).toBe(true);
            expect(wallClockOf(new Date(nextAt - 1).toISOString(), zone) < wanted).toBe(true);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
