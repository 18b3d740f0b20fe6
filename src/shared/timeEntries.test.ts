import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  entryProblem,
  formatElapsed,
  formatMinutes,
  mergeTimeEntry,
  minutesOf,
  normalizeSpans,
  overlapsAny,
  type Span,
  startEffects,
  stopEnd,
  TIME_ENTRY_LENGTH_MESSAGE,
  TIME_ENTRY_MAX_MS,
  TIME_ENTRY_ORDER_MESSAGE,
  TIME_ENTRY_WHEN_MESSAGE,
  weekOf,
} from './timeEntries';
import { timeEntryCreateSchema, timeEntryPatchSchema } from './timeEntrySchemas';
import { timeReportCsv } from './timeReportCsv';

const span = (uuid: string, start: number, end: number | null = null): Span => ({ uuid, start, end });

/** At most one running entry, and none overlapping the next in start order. */
function holdsTheRule(spans: readonly Span[]): boolean {
  const sorted = [...spans].sort((a, b) => a.start - b.start || (a.uuid < b.uuid ? -1 : 1));
  if (sorted.filter((s) => s.end === null).length > 1) return false;
  return sorted.every((s, i) => {
    const next = sorted[i + 1];
    return !next || (s.end !== null && s.end <= next.start);
  });
}

describe('time entry shapes', () => {
  it('X1: an end before the start or over 24 hours is refused, naming ended_at', () => {
    expect(entryProblem('2026-01-01T10:00:00Z', '2026-01-01T09:00:00Z')).toEqual({
      ended_at: [TIME_ENTRY_ORDER_MESSAGE],
    });
    expect(entryProblem('2026-01-01T10:00:00Z', '2026-01-02T10:00:01Z')).toEqual({
      ended_at: [TIME_ENTRY_LENGTH_MESSAGE],
    });
    expect(entryProblem('2026-01-01T10:00:00Z', '2026-01-02T10:00:00Z')).toBeNull();
    expect(entryProblem('2026-01-01T10:00:00Z', null)).toBeNull();
    const parsed = timeEntryCreateSchema.safeParse({ started_at: '2026-01-01T10:00:00Z', note: ' hi ' });
    expect(parsed.success && parsed.data).toEqual({ started_at: '2026-01-01T10:00:00.000Z', note: 'hi' });
    expect(
      timeEntryCreateSchema.safeParse({ started_at: '2026-01-01T10:00:00Z', note: 'x'.repeat(501) }).success,
    ).toBe(false);
  });

  it('X12: an entry may not start before 2000 or more than a day from now, on create and edit alike', () => {
    const now = Date.parse('2026-11-29T12:00:00Z');
    expect(entryProblem('2100-01-01T10:00:00Z', '2100-01-01T11:00:00Z', now)).toEqual({
      started_at: [TIME_ENTRY_WHEN_MESSAGE],
    });
    expect(entryProblem('1999-12-31T23:59:59Z', null, now)).toEqual({
      started_at: [TIME_ENTRY_WHEN_MESSAGE],
    });
    expect(entryProblem('2026-11-30T11:59:00Z', null, now)).toBeNull();
    expect(entryProblem('2026-11-30T12:01:00Z', null, now)).toEqual({
      started_at: [TIME_ENTRY_WHEN_MESSAGE],
    });
    expect(entryProblem('2000-01-01T00:00:00Z', '2000-01-01T01:00:00Z', now)).toBeNull();
    const far = timeEntryCreateSchema.safeParse({ started_at: '2100-03-01T10:00:00Z' });
    expect(far.success).toBe(false);
    expect(far.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['started_at', TIME_ENTRY_WHEN_MESSAGE],
    ]);
    const edit = timeEntryPatchSchema.safeParse({ started_at: '2150-01-01T00:00:00Z' });
    expect(edit.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['started_at', TIME_ENTRY_WHEN_MESSAGE],
    ]);
    expect(timeEntryPatchSchema.safeParse({ started_at: new Date().toISOString() }).success).toBe(true);
  });

  it('X13: a span under a minute counts as 1 minute, an empty one as 0, longer ones to the nearest minute', () => {
    const start = '2026-01-01T10:00:00.000Z';
    const plus = (ms: number) => new Date(Date.parse(start) + ms).toISOString();
    expect(minutesOf(start, plus(22_000))).toBe(1);
    expect(minutesOf(start, plus(1))).toBe(1);
    expect(minutesOf(start, start)).toBe(0);
    expect(minutesOf(start, plus(89_000))).toBe(1);
    expect(minutesOf(start, plus(90_000))).toBe(2);
    expect(minutesOf(start, plus(76 * 60_000))).toBe(76);
    // A running timer of 22 seconds counts too.
    expect(minutesOf(start, null, Date.parse(start) + 22_000)).toBe(1);
  });

  it('shows minutes as `1 h 20 m` and a running clock as h:mm:ss', () => {
    expect([formatMinutes(0), formatMinutes(45), formatMinutes(60), formatMinutes(80)]).toEqual([
      '0 m',
      '45 m',
      '1 h',
      '1 h 20 m',
    ]);
    expect(formatElapsed(4 * 60_000 + 9_000)).toBe('0:04:09');
    expect(weekOf('2026-01-11T23:00:00Z')).toBe('2026-01-05');
  });

  it('writes the report CSV with formula-looking cells quoted', () => {
    expect(
      timeReportCsv([
        {
          date: '2026-01-05',
          start: '2026-01-05T09:00:00.000Z',
          end: '',
          person: '@eve',
          campaign: 'A, B',
          task: '-Plan',
          item: 'x',
          minutes: 5,
          note: '=1+1',
        },
      ]),
    ).toBe(
      "date,start,end,person,campaign,task,item,minutes,note\r\n2026-01-05,2026-01-05T09:00:00.000Z,,'@eve,\"A, B\",'-Plan,x,5,'=1+1",
    );
  });
});

describe('the timer rule', () => {
  it('X2: a start ends the running entry at its start, and a late start ends where the later one begins', () => {
    expect(startEffects([span('a', 0)], span('b', 10))).toEqual({
      ends: [{ uuid: 'a', end: 10 }],
      end: null,
    });
    expect(startEffects([span('a', 0, 5)], span('b', 10))).toEqual({ ends: [], end: null });
    expect(startEffects([span('a', 20)], span('b', 10))).toEqual({ ends: [], end: 20 });
  });

  it('X3: a stop ends once, within 24 hours and before the next entry', () => {
    expect(stopEnd([], span('a', 0, 5), 9)).toBeNull();
    expect(stopEnd([], span('a', 0), 9)).toBe(9);
    expect(stopEnd([], span('a', 0), TIME_ENTRY_MAX_MS * 2)).toBe(TIME_ENTRY_MAX_MS);
    expect(stopEnd([span('b', 4)], span('a', 0), 9)).toBe(4);
  });

  it('X4: entries overlap when their spans share any moment; a running one reaches to forever', () => {
    expect(overlapsAny([span('a', 0, 10)], span('b', 10, 20))).toBe(false);
    expect(overlapsAny([span('a', 0, 11)], span('b', 10, 20))).toBe(true);
    expect(overlapsAny([span('a', 0)], span('b', 10, 20))).toBe(true);
  });

  it('X6: a pending edit keeps its fields over the server copy, and of two ends the earlier wins', () => {
    const server = { started_at: 'S', ended_at: '2026-01-01T10:00:00.000Z', note: 'server' };
    expect(mergeTimeEntry(server, { note: 'mine' })).toEqual({ ...server, note: 'mine' });
    expect(mergeTimeEntry(server, { ended_at: '2026-01-01T11:00:00.000Z' }).ended_at).toBe(server.ended_at);
    expect(mergeTimeEntry(server, { ended_at: '2026-01-01T09:00:00.000Z' }).ended_at).toBe(
      '2026-01-01T09:00:00.000Z',
    );
    expect(
      mergeTimeEntry({ ...server, ended_at: null }, { ended_at: '2026-01-01T09:00:00.000Z' }).ended_at,
    ).toBe('2026-01-01T09:00:00.000Z');
  });

  it('X2: normalizing leaves at most one running entry and no overlaps, whatever the input', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            start: fc.integer({ min: 0, max: 100 }),
            length: fc.option(fc.integer({ min: 0, max: 50 })),
          }),
        ),
        (raw) => {
          const spans = raw.map((r, i) =>
            span(`u${i}`, r.start, r.length === null ? null : r.start + r.length),
          );
          expect(holdsTheRule(normalizeSpans(spans))).toBe(true);
        },
      ),
    );
  });
});

/** A model of the server and two devices, each writing through the shared rule (X2, X3, X9). */
type Op = { kind: 'start'; uuid: string; at: number } | { kind: 'stop'; uuid: string; at: number };

class Server {
  entries = new Map<string, Span>();
  apply(op: Op): void {
    const others = [...this.entries.values()];
    if (op.kind === 'start') {
      if (this.entries.has(op.uuid)) return;
      const effects = startEffects(others, span(op.uuid, op.at));
      for (const end of effects.ends)
        this.entries.set(end.uuid, { ...this.entries.get(end.uuid)!, end: end.end });
      this.entries.set(op.uuid, span(op.uuid, op.at, effects.end));
    } else {
      const entry = this.entries.get(op.uuid);
      if (!entry) return;
      const end = stopEnd(others, entry, op.at);
      if (end !== null) this.entries.set(op.uuid, { ...entry, end });
    }
  }
}

class Device {
  entries = new Map<string, Span>();
  queue: Op[] = [];
  constructor(readonly name: string) {}
  start(uuid: string, at: number): void {
    const effects = startEffects([...this.entries.values()], span(uuid, at));
    for (const end of effects.ends)
      this.entries.set(end.uuid, { ...this.entries.get(end.uuid)!, end: end.end });
    this.entries.set(uuid, span(uuid, at, effects.end));
    this.queue.push({ kind: 'start', uuid, at });
  }
  /** Stops what this device shows running, as its Stop button does. */
  stop(at: number): void {
    const runningEntry = [...this.entries.values()].find((e) => e.end === null);
    if (!runningEntry) return;
    const end = stopEnd([...this.entries.values()], runningEntry, at);
    if (end === null) return;
    this.entries.set(runningEntry.uuid, { ...runningEntry, end });
    this.queue.push({ kind: 'stop', uuid: runningEntry.uuid, at });
  }
  sync(server: Server, replays: number): void {
    for (const op of this.queue) for (let i = 0; i < replays; i++) server.apply(op);
    this.queue = [];
    this.entries = new Map([...server.entries].map(([k, v]) => [k, { ...v }]));
  }
}

const stepArb = fc.record({
  device: fc.constantFrom(0, 1),
  kind: fc.constantFrom('start', 'stop', 'sync'),
  dt: fc.integer({ min: 0, max: 30 }),
});

function run(steps: readonly { device: number; kind: string; dt: number }[], replays: number) {
  const server = new Server();
  const devices = [new Device('phone'), new Device('laptop')];
  let clock = 1_000;
  let n = 0;
  for (const step of steps) {
    clock += step.dt;
    const device = devices[step.device]!;
    if (step.kind === 'start') device.start(`e${n++}`, clock);
    else if (step.kind === 'stop') device.stop(clock);
    else device.sync(server, replays);
    for (const d of devices) expect(holdsTheRule([...d.entries.values()])).toBe(true);
    expect(holdsTheRule([...server.entries.values()])).toBe(true);
  }
  for (const d of [...devices, devices[0]!]) d.sync(server, replays);
  return { server, devices };
}

describe('two devices with one timer', () => {
  it('X3: starting and stopping offline on two devices in any interleaving ends with at most one running entry and no overlaps', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 40 }), (steps) => {
        const { server, devices } = run(steps, 1);
        expect(holdsTheRule([...server.entries.values()])).toBe(true);
        for (const d of devices) expect([...d.entries.values()]).toEqual([...server.entries.values()]);
      }),
      { numRuns: 300 },
    );
  });

  it('X9: replaying every queue twice gives the same entries as sending it once', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 40 }), (steps) => {
        expect([...run(steps, 2).server.entries.values()]).toEqual([
          ...run(steps, 1).server.entries.values(),
        ]);
      }),
      { numRuns: 200 },
    );
  });

  it('X3: a timer started on the phone and stopped on the laptop ends once, at the laptop’s stop', () => {
    const server = new Server();
    const phone = new Device('phone');
    const laptop = new Device('laptop');
    phone.start('t', 100);
    phone.sync(server, 1);
    laptop.sync(server, 1);
    laptop.stop(160);
    phone.stop(200);
    laptop.sync(server, 1);
    phone.sync(server, 1);
    expect(server.entries.get('t')).toEqual(span('t', 100, 160));
  });
});
