// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { OutpostClient } from '../data/client';
import { ItemList } from './ItemList';
import type { RowItem } from './ItemRow';

let client: OutpostClient;

beforeEach(() => {
  client = makeTestClient();
});

afterEach(() => {
  cleanup();
  client.close();
});

const row = (id: number, title: string): RowItem => ({
  id,
  title,
  type: 'todo',
  status: 'pending',
  parent_id: null,
  assigned_to: null,
  due_date: null,
});

const items = [row(1, 'One'), row(2, 'Two'), row(3, 'Three')];

function group(title: string) {
  return screen.getByRole('group', { name: `Todo: ${title}` });
}

function tabbable() {
  return [...document.querySelectorAll<HTMLElement>('ul a[href], ul button, ul input, ul [tabindex]')].filter(
    (el) => el.tabIndex >= 0,
  );
}

/** The list with rows a test can take away, as a delete does. */
let setShown: (next: RowItem[]) => void = () => {};
function Harness() {
  const [shown, set] = useState(items);
  setShown = set;
  return <ItemList items={shown} label="Todos" />;
}

describe('ItemList keyboard', () => {
  it('is one tab stop: the first row, its controls out of the tab order', () => {
    renderWithApp(<ItemList items={items} label="Todos" />);
    expect(tabbable()).toEqual([group('One')]);
  });

  it('moves between rows with the arrows, j/k, Home and End, and the tab stop follows', () => {
    renderWithApp(<ItemList items={items} label="Todos" />);
    act(() => group('One').focus());
    fireEvent.keyDown(group('One'), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(group('Two'));
    fireEvent.keyDown(group('Two'), { key: 'j' });
    expect(document.activeElement).toBe(group('Three'));
    fireEvent.keyDown(group('Three'), { key: 'j' });
    expect(document.activeElement).toBe(group('Three'));
    fireEvent.keyDown(group('Three'), { key: 'k' });
    expect(document.activeElement).toBe(group('Two'));
    expect(tabbable()).toEqual([group('Two')]);
    fireEvent.keyDown(group('Two'), { key: 'End' });
    expect(document.activeElement).toBe(group('Three'));
    fireEvent.keyDown(group('Three'), { key: 'Home' });
    expect(document.activeElement).toBe(group('One'));
    fireEvent.keyDown(group('One'), { key: 'ArrowUp' });
    expect(document.activeElement).toBe(group('One'));
  });

  it('moves focus to the next row when the focused row goes away, or the one before the last', () => {
    renderWithApp(<Harness />);
    act(() => group('Two').focus());
    // The row is removed while it has focus (a delete): the browser drops focus to the body.
    act(() => group('Two').blur());
    act(() => setShown([items[0]!, items[2]!]));
    expect(document.activeElement).toBe(group('Three'));
    act(() => group('Three').blur());
    act(() => setShown([items[0]!]));
    expect(document.activeElement).toBe(group('One'));
  });

  it('starts renaming a todo on Enter and returns focus to the row after it', () => {
    renderWithApp(<ItemList items={items} label="Todos" />);
    act(() => group('One').focus());
    fireEvent.keyDown(group('One'), { key: 'Enter' });
    const field = screen.getByRole('textbox', { name: 'Title' });
    expect(document.activeElement).toBe(field);
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(document.activeElement).toBe(group('One'));
  });
});
