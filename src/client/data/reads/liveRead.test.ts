import { liveQuery } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { createDevice, type Device } from '../../../../testkit/client/harness';
import { liveRead } from './liveRead';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('liveRead', () => {
  let device: Device;
  afterEach(() => device?.client.close());

  /**
   * A read that a stream of writes outruns (a write commits during every run while the stream goes
   * on), subscribed through `live`; answers what it heard while the stream ran and once it ended.
   */
  async function underAStreamOfWrites(live: typeof liveQuery<number> | typeof liveRead<number>) {
    device = createDevice('http://127.0.0.1:9');
    const client = device.client;
    client.auth.getState().initGuest();
    const first = await client.items.create({ title: 'First', type: 'task' });
    const heard: { count: number; provisional: boolean | undefined; during: boolean }[] = [];
    let during = true;
    // A run waits for the next commit, not for a time: on a loaded machine a write may take longer
    // than any fixed sleep, and a run that no write outran would be answered.
    const waiting: (() => void)[] = [];
    // Resumed from a timer, outside the writer's Dexie zone (a run resumed inside it ran in its transaction).
    const committed = () => {
      for (const resume of waiting.splice(0)) setTimeout(resume, 0);
    };
    const read = async () => {
      const count = await client.db.items.count();
      if (during) await new Promise<void>((resume) => waiting.push(resume));
      return count;
    };
    const sub = live(read).subscribe({
      next: (count: number, provisional?: boolean) => heard.push({ count, provisional, during }),
    });
    for (let i = 0; i < 30; i++) {
      await client.items.update(first.id, { title: `First ${i}` });
      committed();
      await client.items.create({ title: `Task ${i}`, type: 'task' });
      committed();
      await sleep(10);
    }
    during = false;
    committed();
    const stored = await client.db.items.count();
    for (let i = 0; i < 200 && heard.at(-1)?.count !== stored; i++) await sleep(10);
    sub.unsubscribe();
    return { heard, stored };
  }

  it('W12: Dexie alone shows nothing while writes keep outrunning a read (the case liveRead is for)', async () => {
    const { heard, stored } = await underAStreamOfWrites(liveQuery);
    expect(heard.filter((h) => h.during)).toEqual([]);
    expect(heard.at(-1)?.count).toBe(stored);
  });

  it('W12: shows a first answer at once, more while the writes go on, then the consistent one', async () => {
    const { heard, stored } = await underAStreamOfWrites(liveRead);
    const during = heard.filter((h) => h.during);
    expect(during.length).toBeGreaterThanOrEqual(2);
    expect(during.every((h) => h.provisional === true)).toBe(true);
    expect(heard.at(-1)).toMatchObject({ count: stored, provisional: false });
    // Never an older answer after a newer one: the rows only grow.
    const counts = heard.map((h) => h.count);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
  });

  it('W12: answers as Dexie does when no write outruns the read', async () => {
    device = createDevice('http://127.0.0.1:9');
    const client = device.client;
    client.auth.getState().initGuest();
    // The device's own start-up writes settle first.
    await sleep(300);
    const heard: { count: number; provisional: boolean | undefined }[] = [];
    const sub = liveRead(() => client.db.items.count()).subscribe({
      next: (count: number, provisional?: boolean) => heard.push({ count, provisional }),
    });
    for (let i = 0; i < 100 && heard.length === 0; i++) await sleep(10);
    await client.items.create({ title: 'One', type: 'task' });
    for (let i = 0; i < 100 && heard.length < 2; i++) await sleep(10);
    await sleep(50);
    sub.unsubscribe();
    // Dexie itself may answer the same count again (a busy machine lets the create's own item writes
    // wake it apart): the same consistent answer twice in a row is one answer.
    const answers = heard.filter(
      (h, i) => i === 0 || h.count !== heard[i - 1]!.count || h.provisional !== heard[i - 1]!.provisional,
    );
    expect(answers).toEqual([
      { count: 0, provisional: false },
      { count: 1, provisional: false },
    ]);
  });
});
