// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { type FormEvent, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { ItemCreateInput } from '../../shared/schemas';
import { type LazyModule, lazyModule } from '../components/ui/lazyMenu';
import type { OutpostClient } from '../data/client';
import * as QuickAddParts from './QuickAddParts';
import { useTitleReader } from './useTitleReader';

type Parts = typeof QuickAddParts;

let client: OutpostClient;
beforeEach(() => {
  client = makeTestClient();
});
afterEach(() => {
  cleanup();
  client.close();
});

/** A module handle whose arrival the test decides: `arrive()` or `fail()`. */
function heldModule() {
  let settle: { arrive: () => void; fail: () => void } | null = null;
  const module: LazyModule<Parts> = lazyModule(
    () =>
      new Promise<Parts>((resolve, reject) => {
        settle = { arrive: () => resolve(QuickAddParts), fail: () => reject(new Error('offline')) };
      }),
  );
  return {
    module,
    arrive: () => act(async () => settle?.arrive()),
    fail: () => act(async () => settle?.fail()),
  };
}

/** A form as the quick adds hold the reader: what each submit saved lands in `saved`. */
function Harness({ module, saved }: { module: LazyModule<Parts>; saved: ItemCreateInput[] }) {
  const [title, setTitle] = useState('');
  const reader = useTitleReader(module, title, () => submit());
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (title.trim() === '' || reader.mustWait()) return;
    const payload: ItemCreateInput = { type: 'todo', title };
    saved.push(reader.reading ? reader.reading.apply(payload) : payload);
    setTitle('');
  };
  return (
    <form onSubmit={submit}>
      <input
        aria-label="Title"
        value={title}
        onFocus={reader.load}
        onChange={(e) => {
          setTitle(e.target.value);
          reader.load();
        }}
      />
      {reader.parts ? (
        <reader.parts.TitleReading
          text={title}
          type="todo"
          assignee
          onReading={reader.onReading}
          inputRef={{ current: null }}
        />
      ) : null}
      <button type="submit" disabled={reader.waiting}>
        {reader.waiting ? 'Adding…' : 'Add'}
      </button>
    </form>
  );
}

function typeAndSubmit(text: string) {
  fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: text } });
  fireEvent.click(screen.getByRole('button', { name: 'Add' }));
}

describe('a quick add submitted before its reader has arrived', () => {
  it('waits for the reader and saves the title as read, not as typed', async () => {
    const held = heldModule();
    const saved: ItemCreateInput[] = [];
    renderWithApp(<Harness module={held.module} saved={saved} />);
    typeAndSubmit('Stretch every day at 7pm p3 +health');
    expect(saved).toEqual([]);
    expect(screen.getByRole('button', { name: 'Adding…' })).toBeTruthy();
    await held.arrive();
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({
      title: 'Stretch',
      recurrence: 'FREQ=DAILY',
      priority: 3,
      labels: ['health'],
    });
    expect(saved[0]?.remind_at).toMatch(/T\d\d:00:00\.000Z$/);
    expect(screen.getByRole('button', { name: 'Add' })).toBeTruthy();
  });

  it('saves the title as typed when the reader cannot load (offline before it was cached)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const held = heldModule();
    const saved: ItemCreateInput[] = [];
    renderWithApp(<Harness module={held.module} saved={saved} />);
    typeAndSubmit('Call mum tomorrow');
    await held.fail();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
    await waitFor(() => expect(saved).toEqual([{ type: 'todo', title: 'Call mum tomorrow' }]));
  });

  it('adds nothing when the title is emptied while it waits', async () => {
    const held = heldModule();
    const saved: ItemCreateInput[] = [];
    renderWithApp(<Harness module={held.module} saved={saved} />);
    typeAndSubmit('Call mum tomorrow');
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: '' } });
    await held.arrive();
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'Later' } });
    await act(async () => undefined);
    expect(saved).toEqual([]);
    expect(screen.getByRole('button', { name: 'Add' })).toBeTruthy();
  });

  it('reads in a second form too when the reader arrived through the first (one shared handle)', async () => {
    const held = heldModule();
    const first: ItemCreateInput[] = [];
    const second: ItemCreateInput[] = [];
    renderWithApp(
      <>
        <Harness module={held.module} saved={first} />
        <Harness module={held.module} saved={second} />
      </>,
    );
    const [one, two] = screen.getAllByRole('textbox', { name: 'Title' });
    act(() => one!.focus());
    await held.arrive();
    fireEvent.change(two!, { target: { value: 'Pay rent p1' } });
    fireEvent.click(screen.getAllByRole('button', { name: 'Add' })[1]!);
    await waitFor(() => expect(second).toEqual([{ type: 'todo', title: 'Pay rent', priority: 1 }]));
    expect(first).toEqual([]);
  });

  it('submits at once once the reader is here', async () => {
    const held = heldModule();
    const saved: ItemCreateInput[] = [];
    renderWithApp(<Harness module={held.module} saved={saved} />);
    act(() => screen.getByRole('textbox', { name: 'Title' }).focus());
    await held.arrive();
    typeAndSubmit('Pay rent p1');
    expect(saved).toEqual([{ type: 'todo', title: 'Pay rent', priority: 1 }]);
  });
});
