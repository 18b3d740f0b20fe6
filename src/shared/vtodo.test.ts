import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_KEPT,
  MERGED_FIELDS,
  type MergeState,
  mergeVtodo,
  parseVtodo,
  priorityFromIcal,
  priorityToIcal,
  readVtodoEtag,
  uuidOfUid,
  type VtodoFields,
  vtodoEtag,
  vtodoFieldsOf,
  writeVtodo,
} from './vtodo';

const times = { created: '2026-01-02T03:04:05.000Z', updated: '2026-01-03T03:04:05.000Z', completed: null };

const day = fc
  .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2199-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
// Printable text with no controls (the writer strips them) and no edge blanks on a label.
const text = fc.string({
  unit: fc.constantFrom(...['a', 'b', ' ', 'Z', 'é', '\\', ';', ',', ':', '"', '\n', '✓', '😀', 'x']),
  minLength: 1,
  maxLength: 40,
});
const label = fc
  .string({
    unit: fc.constantFrom(...['a', 'b', 'c', 'X', 'Y', 'Z', ' ', '-', '_', 'é', '😀', ';', '\\']),
    minLength: 1,
    maxLength: 12,
  })
  .map((s) => s.trim())
  .filter((s) => s !== '');
const rules = fc.constantFrom(
  null,
  'FREQ=DAILY',
  'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH',
  'FREQ=MONTHLY;BYMONTHDAY=15',
  'FREQ=YEARLY;COUNT=3',
  'FREQ=WEEKLY;UNTIL=20301231;WKST=SU',
);
const fields: fc.Arbitrary<VtodoFields> = fc.record({
  uid: fc.uuid(),
  summary: text.filter((s) => s.trim() !== ''),
  description: fc.option(text, { nil: null }),
  start: fc.option(day, { nil: null }),
  due: fc.option(day, { nil: null }),
  priority: fc.constantFrom(1, 2, 3, 4),
  status: fc.constantFrom('pending', 'in_progress', 'completed'),
  labels: fc.uniqueArray(label, { maxLength: 5 }),
  rrule: rules,
  parent: fc.option(fc.uuid(), { nil: null }),
});

const ALARM = [
  'BEGIN:VALARM',
  'ACTION:DISPLAY',
  'DESCRIPTION:Reminder',
  'TRIGGER;RELATED=START:-PT15M',
  'X-WR-ALARMUID:7D3D1E3C-AAAA-BBBB-CCCC-000000000001',
  'END:VALARM',
];
const clientBody = (extra: string[] = []) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Example Corp//Phone//EN',
    'BEGIN:VTIMEZONE',
    'TZID:Europe/Berlin',
    'BEGIN:STANDARD',
    'DTSTART:19701025T030000',
    'TZOFFSETFROM:+0200',
    'TZOFFSETTO:+0100',
    'END:STANDARD',
    'END:VTIMEZONE',
    'BEGIN:VTODO',
    'UID:0F9A2B7C-1111-4222-8333-444455556666',
    'DTSTAMP:20261129T100000Z',
    'SUMMARY:Buy milk',
    'X-FOO;X-PARAM="a;b":some value',
    'X-LONG:an unknown property long enough that the phone folded it over two line',
    ' s of text',
    'DUE;TZID=Europe/Berlin:20261201T090000',
    'PRIORITY:5',
    'CATEGORIES:home,errands',
    ...ALARM,
    ...extra,
    'END:VTODO',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

describe('VTODO mapping', () => {
  it('V1: an item written as a VTODO reads back as the same fields (property)', () => {
    fc.assert(
      fc.property(fields, (f) => {
        const parsed = parseVtodo(writeVtodo(f, EMPTY_KEPT, times));
        expect(parsed.ok && parsed.fields).toEqual(f);
      }),
      { numRuns: 300 },
    );
  });

  it('V1: PRIORITY 1/5/9 and none are p1/p2/p3/p4, and every RFC 5545 priority reads as one of them', () => {
    expect([1, 2, 3, 4].map(priorityToIcal)).toEqual([1, 5, 9, null]);
    expect([null, 0, 1, 4, 5, 6, 9].map(priorityFromIcal)).toEqual([4, 4, 1, 1, 2, 3, 3]);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9 }), (p) => {
        const outpost = priorityFromIcal(p);
        expect(priorityFromIcal(priorityToIcal(outpost))).toBe(outpost);
      }),
    );
  });

  it('V1: unknown properties, VALARM and VTIMEZONE come back byte for byte after the fields change', () => {
    const body = clientBody();
    const parsed = parseVtodo(body, 'Europe/Berlin');
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.fields).toMatchObject({
      summary: 'Buy milk',
      due: '2026-12-01',
      priority: 2,
      labels: ['home', 'errands'],
    });
    const written = writeVtodo(
      { ...parsed.fields, summary: 'Buy oat milk', status: 'completed' },
      parsed.kept,
      times,
    );
    expect(written).toContain('X-FOO;X-PARAM="a;b":some value\r\n');
    expect(written).toContain(
      'X-LONG:an unknown property long enough that the phone folded it over two line\r\n s of text\r\n',
    );
    expect(written).toContain(`${ALARM.join('\r\n')}\r\n`);
    expect(written).toContain('BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n');
    // The day is still the one the zoned DUE meant: the client's own line goes back.
    expect(written).toContain('DUE;TZID=Europe/Berlin:20261201T090000\r\n');
    expect(written).toContain('SUMMARY:Buy oat milk\r\n');
    // Another day: a DATE of Outpost's.
    const moved = writeVtodo({ ...parsed.fields, due: '2026-12-03' }, parsed.kept, times);
    expect(moved).toContain('DUE;VALUE=DATE:20261203\r\n');
    expect(moved).not.toContain('TZID=Europe/Berlin:2026');
  });

  it('V1: a UTC DUE is the day in the item’s time zone; STATUS, COMPLETED and PERCENT-COMPLETE give the status', () => {
    const utc = clientBody().replace('DUE;TZID=Europe/Berlin:20261201T090000', 'DUE:20261201T230000Z');
    expect(parseVtodo(utc, 'UTC').ok && (parseVtodo(utc, 'UTC') as { fields: VtodoFields }).fields.due).toBe(
      '2026-12-01',
    );
    const tokyo = parseVtodo(utc, 'Asia/Tokyo');
    expect(tokyo.ok && tokyo.fields.due).toBe('2026-12-02');
    const status = (line: string) => {
      const parsed = parseVtodo(clientBody([line]));
      return parsed.ok ? parsed.fields.status : parsed.message;
    };
    expect(status('STATUS:IN-PROCESS')).toBe('in_progress');
    expect(status('STATUS:COMPLETED')).toBe('completed');
    expect(status('STATUS:CANCELLED')).toBe('completed');
    expect(status('COMPLETED:20261129T100000Z')).toBe('completed');
    expect(status('PERCENT-COMPLETE:100')).toBe('completed');
    expect(status('PERCENT-COMPLETE:40')).toBe('in_progress');
    expect(status('X-NOTHING:1')).toBe('pending');
  });

  it('V1: a progress of 1-99 PERCENT-COMPLETE comes back as it came while the item is in progress; done writes 100, to do none', () => {
    const parsed = parseVtodo(clientBody(['STATUS:IN-PROCESS', 'PERCENT-COMPLETE:40']));
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.fields.status).toBe('in_progress');
    const written = writeVtodo(parsed.fields, parsed.kept, times);
    expect(written.match(/PERCENT-COMPLETE:\d+/g)).toEqual(['PERCENT-COMPLETE:40']);
    const done = writeVtodo({ ...parsed.fields, status: 'completed' }, parsed.kept, times);
    expect(done.match(/PERCENT-COMPLETE:\d+/g)).toEqual(['PERCENT-COMPLETE:100']);
    const reopened = writeVtodo({ ...parsed.fields, status: 'pending' }, parsed.kept, times);
    expect(reopened).not.toContain('PERCENT-COMPLETE');
    // Reading what was written gives the same fields and progress again.
    const again = parseVtodo(written);
    expect(again.ok && again.kept.percent).toBe('PERCENT-COMPLETE:40');
    // An object without a progress keeps none (so its ETag's mark is what it was before progress was kept).
    const plain = parseVtodo(clientBody());
    if (!plain.ok) throw new Error(plain.message);
    expect(plain.kept.percent).toBeUndefined();
  });

  it('V1: CATEGORIES that differ only in case are one label, as Outpost compares labels', () => {
    const parsed = parseVtodo(clientBody(['CATEGORIES:Garden,GARDEN', 'CATEGORIES:garden,Tools']));
    expect(parsed.ok && parsed.fields.labels).toEqual(['home', 'errands', 'Garden', 'Tools']);
  });

  it('V1: RELATED-TO with RELTYPE=PARENT or none is the parent; a sibling relation is kept as it came', () => {
    const parent = parseVtodo(clientBody(['RELATED-TO;RELTYPE=PARENT:abc']));
    expect(parent.ok && parent.fields.parent).toBe('abc');
    const bare = parseVtodo(clientBody(['RELATED-TO:def']));
    expect(bare.ok && bare.fields.parent).toBe('def');
    const sibling = parseVtodo(clientBody(['RELATED-TO;RELTYPE=SIBLING:ghi']));
    expect(sibling.ok && sibling.fields.parent).toBeNull();
    expect(sibling.ok && sibling.kept.lines).toContain('RELATED-TO;RELTYPE=SIBLING:ghi');
  });

  it('V1: says what is wrong with a body it cannot take', () => {
    const message = (body: string) => {
      const parsed = parseVtodo(body);
      return parsed.ok ? 'ok' : parsed.message;
    };
    expect(message('hello')).toMatch(/VCALENDAR/);
    expect(message(clientBody().replace('SUMMARY:Buy milk\r\n', ''))).toMatch(/SUMMARY/);
    expect(message(clientBody(['RRULE:FREQ=HOURLY']))).toMatch(/FREQ/);
    expect(message(clientBody(['RRULE:garbage;;=']))).not.toBe('ok');
    expect(message(clientBody(['RELATED-TO:a', 'RELATED-TO;RELTYPE=PARENT:b']))).toMatch(/one parent/);
    expect(message(clientBody().replace('DUE;TZID=Europe/Berlin:20261201T090000', 'DUE:20260230'))).toMatch(
      /DUE/,
    );
    expect(
      message(clientBody().replace('END:VCALENDAR', 'BEGIN:VEVENT\r\nUID:x\r\nEND:VEVENT\r\nEND:VCALENDAR')),
    ).toMatch(/VEVENT/);
    expect(
      message(
        clientBody().replace(
          'END:VCALENDAR',
          'BEGIN:VTODO\r\nUID:0F9A2B7C-1111-4222-8333-444455556666\r\nRECURRENCE-ID:20261201T090000Z\r\nSUMMARY:x\r\nEND:VTODO\r\nEND:VCALENDAR',
        ),
      ),
    ).toMatch(/RECURRENCE-ID/);
  });

  it('V2: a completed occurrence shows no RRULE; a blank description none', () => {
    const item = {
      uuid: '6f1c1f4e-9d7b-4a52-b1a8-0b8a4f4a2c11',
      title: 'Water plants',
      description: '',
      due_date: '2026-12-01',
      status: 'completed' as const,
      recurrence: 'FREQ=WEEKLY;BYHOUR=9;BYMINUTE=30',
    };
    expect(vtodoFieldsOf(item, null, null)).toMatchObject({ rrule: null, description: null, priority: 4 });
    expect(vtodoFieldsOf({ ...item, status: 'pending' }, null, null).rrule).toBe('FREQ=WEEKLY');
  });
});

const state = (f: Partial<MergeState> = {}): MergeState => ({
  summary: 'Buy milk',
  description: null,
  start: null,
  due: '2026-12-01',
  priority: 4,
  status: 'pending',
  labels: [],
  rrule: null,
  parent: null,
  kept: EMPTY_KEPT,
  ...f,
});

describe('VTODO merge', () => {
  it('V3: the ETag names the version and marks every merged field', () => {
    const etag = vtodoEtag(7, state());
    const read = readVtodoEtag(etag);
    expect(read?.version).toBe(7);
    expect(Object.keys(read?.marks ?? {})).toEqual([...MERGED_FIELDS]);
    expect(vtodoEtag(7, state({ summary: 'Other' }))).not.toBe(etag);
    expect(readVtodoEtag('"7"')).toBeNull();
    expect(readVtodoEtag('garbage')).toBeNull();
  });

  it('V4: the client’s DUE and the app’s title both survive; the same field changed on both sides conflicts', () => {
    const base = readVtodoEtag(vtodoEtag(3, state()))!.marks;
    const server = state({ summary: 'Buy oat milk' });
    const client = state({ due: '2026-12-05' });
    expect(mergeVtodo(base, client, server)).toEqual({ ok: true, changed: ['due'] });
    expect(mergeVtodo(base, state({ summary: 'Buy soy milk' }), server)).toEqual({
      ok: false,
      conflicts: ['summary'],
    });
    // The same change on both sides is no conflict, and nothing to write.
    expect(mergeVtodo(base, server, server)).toEqual({ ok: true, changed: [] });
    // Without If-Match the PUT takes every field it sends.
    expect(mergeVtodo(null, client, server)).toEqual({ ok: true, changed: ['summary', 'due'] });
  });

  it('V4: a field the client left as it saw it never overwrites the server’s (property)', () => {
    fc.assert(
      fc.property(fields, fields, (a, b) => {
        const { uid: _a, ...seen } = a;
        const { uid: _b, ...now } = b;
        const base = readVtodoEtag(vtodoEtag(1, { ...seen, kept: EMPTY_KEPT }))!.marks;
        const result = mergeVtodo(base, { ...seen, kept: EMPTY_KEPT }, { ...now, kept: EMPTY_KEPT });
        expect(result).toEqual({ ok: true, changed: [] });
      }),
    );
  });

  it('V5: a UUID UID is the item’s uuid; any other UID gives the same UUID every time', () => {
    expect(uuidOfUid('0F9A2B7C-1111-4222-8333-444455556666')).toBe('0f9a2b7c-1111-4222-8333-444455556666');
    const derived = uuidOfUid('20261129T100000Z-1234@example.org');
    expect(derived).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidOfUid('20261129T100000Z-1234@example.org')).toBe(derived);
    expect(uuidOfUid('20261129T100000Z-1235@example.org')).not.toBe(derived);
  });
});
