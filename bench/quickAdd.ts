/**
 * `npm run bench -- quick-add [--rounds N]`: issue 32's keystroke budget for the quick-add reader
 * (src/shared/quickAdd.ts) on Node. Each phrase is typed a character at a time and read after every
 * keystroke, as the quick-add field does; rounds alternate the reader with its reference, a plain
 * whitespace split of the same prefixes (the least any reader of the text must do), so the machine's
 * noise hits both alike. Budget: the reader's median per keystroke under 1 ms; also its p99 and the
 * median ratio to the reference with its spread.
 */
import { readQuickAdd } from '../src/shared/quickAdd';
import { check, heading, info } from './lib/report';
import { median } from './lib/stats';

const PHRASES = [
  'Call mom next fri 5pm p2 +family',
  'Standup every weekday at 9am #Work @sam',
  'Pay bills every month on the 15th',
  "Read Tomorrow's paper before the meeting on thursday",
  'Water plants every 2 weeks on mon and thu +home',
  'Renew passport in 2 weeks p1',
  'Team lunch every last friday at noon #Office',
  'Buy milk, eggs and bread tomorrow morning',
];

const now = new Date('2026-11-25T15:00:00Z');

function typeAll(read: (text: string) => unknown): number[] {
  const times: number[] = [];
  for (const phrase of PHRASES)
    for (let n = 1; n <= phrase.length; n++) {
      const text = phrase.slice(0, n);
      const t0 = performance.now();
      read(text);
      times.push(performance.now() - t0);
    }
  return times;
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

export async function run(args: string[] = []): Promise<void> {
  const at = args.indexOf('--rounds');
  const rounds = at >= 0 ? Math.max(3, Number(args[at + 1]) || 7) : 7;
  heading(`quick-add: ${PHRASES.length} phrases typed a key at a time, ${rounds} alternating rounds`);
  const reader = (text: string) => readQuickAdd(text, { now, timeZone: 'America/New_York' });
  const reference = (text: string) => text.split(/\s+/);
  // Warm both up (JIT, chrono's patterns) before anything counts.
  typeAll(reader);
  typeAll(reference);
  const all: number[] = [];
  const medians: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const app = typeAll(reader);
    const ref = typeAll(reference);
    all.push(...app);
    medians.push(median(app));
    ratios.push(median(app) / Math.max(median(ref), 0.0005));
  }
  const fmt = (v: number) => `${v.toFixed(3)} ms`;
  info('quick-add reader', 'p99 per keystroke', fmt(quantile(all, 0.99)));
  info(
    'quick-add reader',
    'reader ÷ split (median, spread)',
    `${median(ratios).toFixed(0)}× (${Math.min(...ratios).toFixed(0)}×–${Math.max(...ratios).toFixed(0)}×)`,
  );
  const value = median(medians);
  check({
    subject: 'quick-add reader, a keystroke',
    metric: 'median of rounds',
    value: `${fmt(value)} (${fmt(Math.min(...medians))}–${fmt(Math.max(...medians))})`,
    budget: '< 1 ms',
    ok: value < 1,
  });
}
