// @vitest-environment jsdom
/**
 * The assignee pickers inside and outside a shared campaign (SYNC.md M16), against the real server and
 * the real data layer: a team of two, a mutual contact who is not a member, the server's sample users.
 */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testDevices } from '../../../testkit/client/devices';
import { type Device, settled, signIn } from '../../../testkit/client/harness';
import { renderWithApp } from '../../../testkit/client/renderWithApp';
import { freshPhone } from '../../../testkit/client/server';
import EditItemDialog from './EditItemDialog';
import { ItemRow } from './ItemRow';
import { QuickAddCard } from './QuickAddCard';

const { device } = testDevices();

afterEach(() => cleanup());

/** Alice owns a campaign Bob is a member of; Cy is Alice's mutual contact outside it. */
async function team() {
  const [alice, bob, cy] = [device(), device(), device()];
  const phones = { alice: freshPhone(), bob: freshPhone(), cy: freshPhone() };
  await signIn(alice, phones.alice, 'Alice');
  await signIn(bob, phones.bob, 'Bob');
  await signIn(cy, phones.cy, 'Cy');
  await alice.client.api.post('/contacts/sync', { contacts: [phones.bob, phones.cy] });
  await bob.client.api.post('/contacts/sync', { contacts: [phones.alice] });
  await cy.client.api.post('/contacts/sync', { contacts: [phones.alice] });
  const campaign = await alice.client.items.create({ title: 'Spring fair', type: 'campaign' });
  const task = await alice.client.items.create({
    title: 'Book the hall',
    type: 'task',
    parent_id: campaign.id,
  });
  const loose = await alice.client.items.create({ title: 'Water plants', type: 'task' });
  await settled(alice);
  const idOf = async (d: Device, uuid: string | null) =>
    (
      await d.client.db.items
        .where('uuid')
        .equals(uuid ?? '')
        .first()
    )?.id ?? 0;
  const ids = {
    campaign: await idOf(alice, campaign.uuid),
    task: await idOf(alice, task.uuid),
    loose: await idOf(alice, loose.uuid),
  };
  const bobId = bob.client.auth.getState().user.id;
  const added = await alice.client.api.post(`/campaigns/${ids.campaign}/members`, {
    user_id: bobId,
    role: 'editor',
  });
  expect(added.status).toBe(201);
  // The campaign's members_count comes down with the next pull; the pickers read the mutuals stored.
  await alice.client.engine.sync();
  await alice.client.send('contacts.refreshMutuals');
  return { alice, ids };
}

const optionNames = (select: HTMLElement) =>
  [...(select as HTMLSelectElement).options].map((o) => o.textContent);

describe('M16: who the assignee pickers offer in a shared campaign', () => {
  it('M16: the edit dialog inside a shared campaign offers its members only; outside it, contacts and samples', async () => {
    const { alice, ids } = await team();
    const shown = renderWithApp(<EditItemDialog itemId={ids.task} open onOpenChange={() => {}} />, {
      client: alice.client,
    });
    const dialog = await screen.findByRole('dialog', { name: 'Edit details' });
    await waitFor(() =>
      expect(optionNames(within(dialog).getByLabelText('Assignee'))).toEqual([
        'Unassigned',
        'Alice (you)',
        'Bob',
      ]),
    );
    shown.unmount();

    renderWithApp(<EditItemDialog itemId={ids.loose} open onOpenChange={() => {}} />, {
      client: alice.client,
    });
    const outside = await screen.findByRole('dialog', { name: 'Edit details' });
    await waitFor(() =>
      expect(optionNames(within(outside).getByLabelText('Assignee'))).toEqual([
        'Unassigned',
        'Alice (you)',
        'Bob',
        'Cy',
        'Alex Morgan',
        'Sam Rivera',
        'Jordan Lee',
        'Taylor Kim',
      ]),
    );
  });

  it('M16: a row asks whom its picker offers only once its menu opens, and then offers the members; an assignee the row does not name is named from them', async () => {
    const { alice, ids } = await team();
    const task = (await alice.client.db.items.get(ids.task))!;
    const happened: string[] = [];
    const send = alice.client.send;
    vi.spyOn(alice.client, 'send').mockImplementation(((name: string, args?: unknown) => {
      if (name === 'sharing.roster') happened.push('roster asked');
      return (send as (n: string, a?: unknown) => Promise<unknown>)(name, args);
    }) as typeof send);
    renderWithApp(<ItemRow item={{ ...task, title: 'Book the hall', assigned_to: null }} />, {
      client: alice.client,
    });
    const trigger = await screen.findByRole('button', { name: 'More actions for Book the hall' });
    // Time for a row that read its campaign and roster on mount to have asked.
    await new Promise((resolve) => setTimeout(resolve, 300));
    happened.push('menu opened');
    await act(async () => {
      fireEvent.keyDown(trigger, { key: 'Enter' });
    });
    const menu = await screen.findByRole('menu');
    await act(async () => {
      fireEvent.keyDown(within(menu).getByRole('menuitem', { name: 'Assign' }), { key: 'ArrowRight' });
    });
    await waitFor(() =>
      expect(screen.getAllByRole('menuitemradio').map((o) => o.textContent)).toEqual([
        'Unassigned',
        'Alice (you)',
        'Bob',
      ]),
    );
    expect(happened).toEqual(['menu opened', 'roster asked']);
    cleanup();

    // Assigned to Bob, without the server's name for him: the row names him from the members.
    const bob = (await alice.client.send('sharing.roster', { campaignId: ids.campaign })).members.find(
      (m) => m.user.name === 'Bob',
    )!;
    renderWithApp(<ItemRow item={{ ...task, assigned_to: bob.user.id, assignedUser: null }} />, {
      client: alice.client,
    });
    expect(await screen.findByText('Bob')).toBeTruthy();
  });

  it('M16: quick add inside a shared campaign reads @ only for its members, in its picker and its title', async () => {
    const { alice, ids } = await team();
    renderWithApp(<QuickAddCard types={['todo']} parentId={ids.task} />, { client: alice.client });
    const title = screen.getByRole('textbox', { name: /title/i });
    act(() => title.focus());
    const picker = await screen.findByLabelText('Assignee');
    await waitFor(() => expect(optionNames(picker)).toEqual(['Unassigned', 'Alice (you)', 'Bob']));
    fireEvent.change(title, { target: { value: 'Bring chairs @bob' } });
    const chips = within(await screen.findByRole('list', { name: 'Understood from the title' }));
    expect(chips.getByText('Bob')).toBeTruthy();
    // A sample user and a contact outside the campaign are no one here: their words stay in the title.
    for (const name of ['@sam', '@cy']) {
      fireEvent.change(title, { target: { value: `Bring chairs ${name} tomorrow` } });
      const read = within(await screen.findByRole('list', { name: 'Understood from the title' }));
      await waitFor(() => expect(read.queryByRole('button', { name: /Remove assignee/ })).toBeNull());
    }
  });

  it('M16: quick add outside reads @ against the campaign a #name puts the item in', async () => {
    const { alice } = await team();
    renderWithApp(<QuickAddCard types={['task']} />, { client: alice.client });
    const title = screen.getByRole('textbox', { name: /title/i });
    act(() => title.focus());
    fireEvent.change(title, { target: { value: 'Tables @sam' } });
    const chips = within(await screen.findByRole('list', { name: 'Understood from the title' }));
    expect(await chips.findByText('Sam Rivera')).toBeTruthy();
    fireEvent.change(title, { target: { value: 'Tables #spring @sam' } });
    await waitFor(() => expect(chips.queryByText('Sam Rivera')).toBeNull());
    expect(chips.getByText('Spring fair')).toBeTruthy();
  });
});
