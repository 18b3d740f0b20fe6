// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { OutpostClient } from '../data/client';
import { toastStore } from '../stores/toastStore';
import CreateItemDialog from './CreateItemDialog';
import { localToday } from './itemPayload';
import { QuickAddCard } from './QuickAddCard';

let client: OutpostClient;

beforeEach(() => {
  client = makeTestClient();
  toastStore.getState().clear();
});

afterEach(() => {
  cleanup();
  client.close();
});

/** Tomorrow on this device's calendar, as 'tomorrow' means it. */
function tomorrow(): string {
  const day = new Date();
  day.setDate(day.getDate() + 1);
  return localToday(day);
}

function titleInput() {
  return screen.getByRole('textbox', { name: /title/i });
}

/** Types into the field as a person does: focus (which loads the reader), then the text. */
function type(text: string) {
  act(() => titleInput().focus());
  fireEvent.change(titleInput(), { target: { value: text } });
}

async function chips() {
  return within(await screen.findByRole('list', { name: 'Understood from the title' }));
}

describe('quick add reads what you mean', () => {
  it("shows a chip per part of 'Pay rent tomorrow p1'", async () => {
    renderWithApp(<QuickAddCard types={['todo']} />);
    type('Pay rent tomorrow p1');
    const list = await chips();
    expect(list.getByText('Tomorrow')).toBeTruthy();
    expect(list.getByText('Priority 1')).toBeTruthy();
    expect(list.getByRole('button', { name: 'Remove due date tomorrow' })).toBeTruthy();
    expect(list.getByRole('button', { name: 'Remove priority p1' })).toBeTruthy();
  });

  it('saves the title that is left and the due date the words set', async () => {
    renderWithApp(<QuickAddCard types={['todo']} />);
    type('Pay rent tomorrow p1');
    await chips();
    await act(async () => {
      fireEvent.keyDown(titleInput(), { key: 'Enter' });
    });
    await waitFor(async () => expect(await client.db.items.count()).toBe(1));
    const [item] = await client.db.items.toArray();
    // (The payload carries priority 1 too, quickAddReader.test.ts; the device's create does not store it yet.)
    expect(item).toMatchObject({ title: 'Pay rent', type: 'todo', due_date: tomorrow() });
    // Emptied for the next one: no chips left over.
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Understood from the title' })).toBeNull());
  });

  it("keeps 'tomorrow' in the title when its chip is removed", async () => {
    renderWithApp(<QuickAddCard types={['todo']} />);
    type('Pay rent tomorrow p1');
    const list = await chips();
    fireEvent.click(list.getByRole('button', { name: 'Remove due date tomorrow' }));
    expect(screen.queryByText('Tomorrow')).toBeNull();
    // Focus stays among the chips, on the one now in the removed one's place.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove priority p1' }));
    await act(async () => {
      fireEvent.keyDown(titleInput(), { key: 'Enter' });
    });
    await waitFor(async () => expect(await client.db.items.count()).toBe(1));
    const [item] = await client.db.items.toArray();
    expect(item?.title).toBe('Pay rent tomorrow');
    expect(item?.due_date ?? null).toBeNull();
  });

  it('sets the reminder from a time, the rule from a repeat, the parent from a #name, and a +label', async () => {
    const campaign = await client.items.create({ title: 'Household chores', type: 'campaign' });
    renderWithApp(<QuickAddCard types={['todo', 'task']} />);
    type('Water plants every weekday at 9am #house +garden');
    const list = await chips();
    expect(list.getByText('Every weekday')).toBeTruthy();
    expect(await list.findByText('Household chores')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add todo' }));
    await waitFor(async () => expect(await client.db.items.count()).toBe(2));
    const todo = (await client.db.items.toArray()).find((i) => i.type === 'todo');
    expect(todo).toMatchObject({
      title: 'Water plants',
      parent_id: campaign.id,
      recurrence: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR',
    });
    expect(todo?.remind_at).not.toBeNull();
    // 09:00 on the due date, on this device's clock.
    const at = new Date(todo!.remind_at!);
    expect([at.getHours(), at.getMinutes(), localToday(at)]).toEqual([9, 0, todo!.due_date]);
  });

  it('leaves in the title what it cannot find: an unknown #name, @someone a guest has nobody for', async () => {
    renderWithApp(<QuickAddCard types={['todo']} />);
    type('Ask @sam about #nowhere tomorrow');
    const list = await chips();
    expect(list.getAllByRole('listitem')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Add todo' }));
    await waitFor(async () => expect(await client.db.items.count()).toBe(1));
    const [item] = await client.db.items.toArray();
    expect(item).toMatchObject({ title: 'Ask @sam about #nowhere', due_date: tomorrow() });
  });

  it("shows an unsure part off ('Workshop 2h' keeps its 2h) until the person turns it on", async () => {
    renderWithApp(<QuickAddCard types={['todo']} />);
    type('Workshop 2h p2');
    const list = await chips();
    const offer = list.getByRole('button', { name: /^Use “2h” as due date and reminder/ });
    expect(offer.getAttribute('aria-pressed')).toBe('false');
    // Off: nothing from it is set, and its words stay in the title that would be saved.
    expect(list.queryByRole('button', { name: 'Remove due date and reminder 2h' })).toBeNull();
    fireEvent.click(offer);
    const remove = await list.findByRole('button', { name: 'Remove due date and reminder 2h' });
    // Focus stays on the chip, now on.
    expect(document.activeElement).toBe(remove);
    fireEvent.click(screen.getByRole('button', { name: 'Add todo' }));
    await waitFor(async () => expect(await client.db.items.count()).toBe(1));
    const [item] = await client.db.items.toArray();
    expect(item?.title).toBe('Workshop');
    expect(item?.remind_at).not.toBeNull();
  });

  it("saves an unsure part's words in the title when its chip stays off ('Hotel 24/7 support')", async () => {
    renderWithApp(<QuickAddCard types={['todo']} />);
    type('Hotel 24/7 support');
    const list = await chips();
    expect(list.getByRole('button', { name: /^Use “24\/7” as due date/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add todo' }));
    await waitFor(async () => expect(await client.db.items.count()).toBe(1));
    const [item] = await client.db.items.toArray();
    expect(item).toMatchObject({ title: 'Hotel 24/7 support' });
    expect(item?.due_date ?? null).toBeNull();
  });

  it('does not save a title that the chips took entirely', async () => {
    renderWithApp(<QuickAddCard types={['todo']} />);
    type('tomorrow');
    await chips();
    expect((screen.getByRole('button', { name: 'Add todo' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(/Add a title/)).toBeTruthy();
  });

  it('reads the Create dialog title too', async () => {
    renderWithApp(<CreateItemDialog open onOpenChange={() => {}} />);
    // Radix tabs select on the press, as a pointer does.
    fireEvent.mouseDown(screen.getByRole('tab', { name: /task/i }), { button: 0 });
    type('Book venue tomorrow');
    const list = await chips();
    fireEvent.click(list.getByRole('button', { name: 'Remove due date tomorrow' }));
    // The last chip gone, focus goes back to the title.
    expect(document.activeElement).toBe(titleInput());
    fireEvent.change(titleInput(), { target: { value: 'Book venue tomorrow, call caterer in 3 days' } });
    expect(await screen.findByText(/^(Sat|Sun|Mon|Tue|Wed|Thu|Fri) /)).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Create task' }));
    });
    await waitFor(async () => expect(await client.db.items.count()).toBe(1));
    const [item] = await client.db.items.toArray();
    const inThree = new Date();
    inThree.setDate(inThree.getDate() + 3);
    expect(item).toMatchObject({
      title: 'Book venue tomorrow, call caterer',
      type: 'task',
      due_date: localToday(inThree),
    });
  });

  it('shows what the chips set in the fields below, and a field set by hand gives the words back', async () => {
    renderWithApp(<CreateItemDialog open onOpenChange={() => {}} />);
    fireEvent.mouseDown(screen.getByRole('tab', { name: /task/i }), { button: 0 });
    type('Book venue tomorrow');
    await chips();
    const due = screen.getByLabelText('Due date') as HTMLInputElement;
    expect(due.value).toBe(tomorrow());
    fireEvent.change(due, { target: { value: '2031-05-06' } });
    expect(screen.queryByRole('list', { name: 'Understood from the title' })).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Create task' }));
    });
    await waitFor(async () => expect(await client.db.items.count()).toBe(1));
    const [item] = await client.db.items.toArray();
    expect(item).toMatchObject({ title: 'Book venue tomorrow', due_date: '2031-05-06' });
  });
});
