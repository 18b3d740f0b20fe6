import { describe, expect, it } from 'vitest';
import type { OutpostDb } from '../store/db';
import { later, laterReads } from './laterReads';

const db = {} as OutpostDb;

describe('reads of later screens', () => {
  it('answers undefined until its module arrives, tells the live queries once, then reads at once', async () => {
    let loads = 0;
    const read = later(async () => {
      loads += 1;
      return (_db: OutpostDb, n: number) => n * 2;
    });
    const told: number[] = [];
    const stop = laterReads.subscribe(() => told.push(laterReads.version()));
    const before = laterReads.version();
    expect(read(db, 4)).toBeUndefined();
    expect(read(db, 5)).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(told).toEqual([before + 1]);
    expect(read(db, 4)).toBe(8);
    expect(loads).toBe(1);
    stop();
  });

  it('tries the load again after it failed (a chunk the network dropped)', async () => {
    let tries = 0;
    const read = later(async () => {
      tries += 1;
      if (tries === 1) throw new Error('chunk failed');
      return () => 'read';
    });
    expect(read(db)).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(read(db)).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(read(db)).toBe('read');
    expect(tries).toBe(2);
  });
});
