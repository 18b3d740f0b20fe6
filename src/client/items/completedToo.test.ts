import { afterEach, describe, expect, it } from 'vitest';
import { createDevice, type Device } from '../../../testkit/client/harness';
import { completedTooText } from './mutations';

describe('a completion that completes its parent says so (P13)', () => {
  let device: Device;
  afterEach(() => device?.client.close());

  it('answers the parents the roll-up completed: the campaign of its only task, and none while another is open', async () => {
    device = createDevice('http://127.0.0.1:9');
    const client = device.client;
    client.auth.getState().initGuest();
    const send = client.send;
    const campaign = await client.items.create({ title: 'Launch', type: 'campaign' });
    const only = await client.items.create({ title: 'Plan', type: 'task', parent_id: campaign.id });
    expect(await send('items.setStatus', { id: only.id, status: 'completed' })).toEqual({
      completedWith: [{ type: 'campaign', title: 'Launch' }],
    });

    const trip = await client.items.create({ title: 'Trip', type: 'campaign' });
    const pack = await client.items.create({ title: 'Pack', type: 'task', parent_id: trip.id });
    const book = await client.items.create({ title: 'Book', type: 'task', parent_id: trip.id });
    const tents = await client.items.create({ title: 'Tents', type: 'todo', parent_id: pack.id });
    // The task's last todo completes the task, not yet the campaign (Book is open).
    expect(await send('items.setStatus', { id: tents.id, status: 'completed' })).toEqual({
      completedWith: [{ type: 'task', title: 'Pack' }],
    });
    expect(await send('items.setStatus', { id: book.id, status: 'completed' })).toEqual({
      completedWith: [{ type: 'campaign', title: 'Trip' }],
    });
    expect(await send('items.setStatus', { id: book.id, status: 'pending' })).toEqual({ completedWith: [] });
  });

  it('words one parent or two in a sentence for the toast', () => {
    expect(completedTooText([])).toBeNull();
    expect(completedTooText([{ type: 'campaign', title: 'Launch' }])).toBe(
      'Campaign “Launch” is complete too: nothing in it is left open.',
    );
    expect(
      completedTooText([
        { type: 'task', title: 'Pack' },
        { type: 'campaign', title: 'Trip' },
      ]),
    ).toBe('Task “Pack” and campaign “Trip” are complete too: nothing in them is left open.');
  });
});
