/**
 * The alternating pairs of local-writes and reorder: reference then app, N times after two unrecorded
 * pairs (the first writes after a subscription compile their paths), with the app's time until shown
 * and until stored each against the reference's.
 */
import { median, percentile } from './stats';

export interface Pairs {
  ref: number[];
  app: number[];
  ratios: number[];
}

export const ms = (v: number) => `${v.toFixed(v < 10 ? 2 : 1)} ms`;
export const times = (v: number) => `${v.toFixed(2)}×`;

/** The median ratio with its spread and its p90, as the summaries print it. */
export function ratioText(p: Pairs): string {
  const spread = `${times(Math.min(...p.ratios))}–${times(Math.max(...p.ratios))}`;
  return `${times(median(p.ratios))} (${spread}; p90 ${times(percentile(p.ratios, 0.9))})`;
}

/** Runs `n` alternating pairs; `shown` times the app until the list shows it, `stored` until it resolved. */
export async function alternatePairs(
  n: number,
  ref: () => Promise<{ ms: number }>,
  app: () => Promise<{ ms: number; storedMs: number }>,
): Promise<{ shown: Pairs; stored: Pairs }> {
  const shown: Pairs = { ref: [], app: [], ratios: [] };
  const stored: Pairs = { ref: [], app: [], ratios: [] };
  for (let i = 0; i < 2; i++) {
    await ref();
    await app();
  }
  for (let i = 0; i < n; i++) {
    const r = await ref();
    const a = await app();
    shown.ref.push(r.ms);
    shown.app.push(a.ms);
    shown.ratios.push(a.ms / r.ms);
    stored.ref.push(r.ms);
    stored.app.push(a.storedMs);
    stored.ratios.push(a.storedMs / r.ms);
  }
  return { shown, stored };
}
