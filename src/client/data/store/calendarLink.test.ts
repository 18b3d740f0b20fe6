import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { clearDeviceStores } from '../sync/deviceWipe';
import { forgetCalendarLink, keepCalendarLink, keptCalendarLink } from './calendarLink';
import { OutpostDb } from './db';

let dbs = 0;
const freshDb = () => new OutpostDb(`calendar-link-${++dbs}`, { indexedDB: new IDBFactory(), IDBKeyRange });
const made = {
  userId: 7,
  url: 'https://outpost.test/cal/AAAAAAAAAAAAAAAAAAAAAA.ics',
  createdAt: '2026-11-27T20:00:00.000Z',
};

describe('the calendar link kept on the device that made it (F9)', () => {
  it('F9: shows the kept URL only for its person and while it is the link active since its time', async () => {
    const db = freshDb();
    expect(await keptCalendarLink(db, 7, made.createdAt)).toBeNull();
    await keepCalendarLink(db, made);
    expect(await keptCalendarLink(db, 7, '2026-11-27T20:00:00Z')).toBe(made.url);
    expect(await keptCalendarLink(db, 8, made.createdAt)).toBeNull();
    // A newer link made on another device retired this one.
    expect(await keptCalendarLink(db, 7, '2026-11-28T08:00:00.000Z')).toBeNull();
    expect(await keptCalendarLink(db, 7, null)).toBeNull();
  });

  it('F9: a logout and Clear Local Data take the kept URL away', async () => {
    const db = freshDb();
    await keepCalendarLink(db, made);
    await forgetCalendarLink(db);
    expect(await keptCalendarLink(db, 7, made.createdAt)).toBeNull();
    await keepCalendarLink(db, made);
    await clearDeviceStores(db);
    expect(await keptCalendarLink(db, 7, made.createdAt)).toBeNull();
  });
});
