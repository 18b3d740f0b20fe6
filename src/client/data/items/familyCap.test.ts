import { afterEach, describe, expect, it } from 'vitest';
import { createDevice, type Device } from '../../../../testkit/client/harness';
import { localItem } from '../../../../testkit/client/items';
import { FAMILY_FULL_MESSAGE, FAMILY_MAX_ITEMS } from '../../../shared/item';
import { ValidationError } from './repositoryErrors';

describe("the family cap on a guest's device", () => {
  let device: Device;
  afterEach(() => device?.client.close());

  it('refuses a guest one more item under a full campaign, as the server would at upload, and takes one elsewhere (F0)', async () => {
    device = createDevice('http://127.0.0.1:9');
    const client = device.client;
    client.auth.getState().initGuest();
    const campaign = await client.items.create({ title: 'Brimful', type: 'campaign' });
    const task = await client.items.create({ title: 'Last task', type: 'task', parent_id: campaign.id });
    // The rest of the family in one write: the store's counters follow it as they follow any write.
    await client.db.items.bulkPut(
      Array.from({ length: FAMILY_MAX_ITEMS - 1 }, (_, n) =>
        localItem(1_000_000 + n, `Filler ${n}`, {
          type: 'todo',
          parent_id: task.id,
          user_id: 0,
          _syncStatus: 'local',
        }),
      ),
    );
    for (const parent_id of [campaign.id, task.id]) {
      const refused = await client.items
        .create({ title: 'One too many', type: 'todo', parent_id })
        .catch((e) => e);
      expect(refused).toBeInstanceOf(ValidationError);
      expect((refused as ValidationError).errors.parent_id).toEqual([FAMILY_FULL_MESSAGE]);
    }
    const other = await client.items.create({ title: 'Roomy', type: 'campaign' });
    await expect(
      client.items.create({ title: 'Fits', type: 'task', parent_id: other.id }),
    ).resolves.toMatchObject({
      title: 'Fits',
    });
  });
});
