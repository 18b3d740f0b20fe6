import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ReportEntry, reportRowsOf, timeReport } from './timeReport';
import { timeReportCsv } from './timeReportCsv';
import { rollupEstimates, rollupSpent, spentProgress } from './timeRollup';

const at = (m: number) => new Date(Date.UTC(2026, 10, 2, 9) + m * 60_000).toISOString();
const entry = (
  item_id: number,
  from: number,
  to: number | null,
  extra: Partial<ReportEntry> = {},
): ReportEntry => ({
  item_id,
  user_id: 1,
  user_name: 'Ada',
  started_at: at(from),
  ended_at: to === null ? null : at(to),
  note: '',
  item_title: `Item ${item_id}`,
  campaign: null,
  ...extra,
});

describe('time roll-up and report', () => {
  it('X11: spent rolls up from a todo to its task and campaign; a running entry counts up to now', () => {
    const parents = new Map<number, number | null>([
      [3, 2],
      [2, 1],
      [1, null],
    ]);
    const now = Date.parse(at(100));
    const spent = rollupSpent(
      [entry(3, 0, 30), entry(2, 30, 50), entry(3, 80, null)],
      (id) => parents.get(id),
      now,
    );
    expect(Object.fromEntries(spent)).toEqual({ 3: 50, 2: 70, 1: 70 });
  });

  it('X11: the roll-up of a parent is the sum of what its own entries and its children hold', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ item: fc.integer({ min: 1, max: 6 }), from: fc.nat(500), len: fc.nat(120) }), {
          maxLength: 20,
        }),
        (raw) => {
          // 1 ← 2 ← 3, 1 ← 4, 5 ← 6: two trees.
          const parents = new Map<number, number | null>([
            [1, null],
            [2, 1],
            [3, 2],
            [4, 1],
            [5, null],
            [6, 5],
          ]);
          const entries = raw.map((r) => entry(r.item, r.from, r.from + r.len));
          const spent = rollupSpent(entries, (id) => parents.get(id), 0);
          const own = (id: number) =>
            entries
              .filter((e) => e.item_id === id)
              .reduce(
                (s, e) => s + Math.round((Date.parse(e.ended_at!) - Date.parse(e.started_at)) / 60_000),
                0,
              );
          const get = (id: number) => spent.get(id) ?? 0;
          expect(get(3)).toBe(own(3));
          expect(get(2)).toBe(own(2) + get(3));
          expect(get(1)).toBe(own(1) + get(2) + get(4));
          expect(get(5)).toBe(own(5) + get(6));
        },
      ),
      { numRuns: 50 },
    );
  });

  it('X14: a task or campaign totals its own estimate, else its children’s totals, null when none has one', () => {
    const node = (
      id: number,
      type: 'campaign' | 'task' | 'todo',
      parent_id: number | null,
      est?: number | null,
    ) => ({
      id,
      type,
      parent_id,
      estimate_minutes: est ?? null,
    });
    const totals = rollupEstimates([
      node(1, 'campaign', null),
      node(2, 'task', 1),
      node(3, 'todo', 2, 30),
      node(4, 'todo', 2, 45),
      node(5, 'todo', 2),
      node(6, 'task', 1, 120),
      node(7, 'todo', 6, 999),
      node(8, 'todo', 1, 15),
      node(9, 'task', 1),
      node(10, 'campaign', null, 0),
      node(11, 'todo', 10, 50),
    ]);
    expect(Object.fromEntries(totals)).toEqual({ 1: 210, 2: 75, 6: 120, 9: null, 10: 0 });
  });

  it('the bar turns amber past the estimate and has none without one', () => {
    expect(spentProgress(80, 180)).toEqual({ share: 80 / 180, over: false });
    expect(spentProgress(200, 180)).toEqual({ share: 1, over: true });
    expect(spentProgress(10, null)).toBeNull();
  });

  it('sums by campaign, person and week under the filters, with the total', () => {
    const launch = { id: 7, title: 'Launch' };
    const entries = [
      entry(1, 0, 60, { campaign: launch }),
      entry(2, 0, 30, { user_id: 2, user_name: 'Bo', started_at: at(0), campaign: launch }),
      entry(3, 7 * 24 * 60, 7 * 24 * 60 + 45),
    ];
    const report = timeReport(entries, {}, 0);
    expect(report.total).toBe(135);
    expect(report.byCampaign).toEqual([
      { key: '7', label: 'Launch', minutes: 90 },
      { key: 'none', label: 'No campaign', minutes: 45 },
    ]);
    expect(report.byPerson.map((p) => [p.label, p.minutes])).toEqual([
      ['Ada', 105],
      ['Bo', 30],
    ]);
    expect(report.byWeek.map((w) => w.key)).toEqual(['2026-11-09', '2026-11-02']);
    expect(timeReport(entries, { campaignId: 7, userId: 2 }, 0).total).toBe(30);
    expect(timeReport(entries, { from: '2026-11-05' }, 0).total).toBe(45);
  });

  it('the device-built CSV keeps the injection rule of the server’s', () => {
    const rows = reportRowsOf(
      [
        entry(1, 0, 60, { item_title: '=SUM(A1)', note: '+1', task_title: '@Plan' }),
        entry(2, 70, null, { item_title: 'Loose' }),
      ],
      {},
      Date.parse(at(100)),
    );
    const csv = timeReportCsv(rows).split('\r\n');
    expect(csv[0]).toBe('date,start,end,person,campaign,task,item,minutes,note');
    // Newest first; a running entry has no end yet.
    expect(csv[1]).toBe(`2026-11-02,${at(70)},,Ada,,,Loose,30,`);
    expect(csv[2]).toBe(`2026-11-02,${at(0)},${at(60)},Ada,,'@Plan,'=SUM(A1),60,'+1`);
  });
});
