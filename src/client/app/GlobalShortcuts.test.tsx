// @vitest-environment jsdom
import { cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useGlobalShortcuts } from './GlobalShortcuts';

function Page({ rows = true, dialog = false }: { rows?: boolean; dialog?: boolean }) {
  useGlobalShortcuts();
  return (
    <main>
      <form aria-label="Quick add">
        <input aria-label="Todo title" data-quick-add-title />
      </form>
      <button type="button">Elsewhere</button>
      {rows ? (
        <ul>
          <li data-index="0">
            <button type="button" data-item-id="1" tabIndex={0}>
              First
            </button>
          </li>
          <li data-index="1">
            <button type="button" data-item-id="2" tabIndex={-1}>
              Second
            </button>
          </li>
        </ul>
      ) : null}
      {dialog ? <div role="dialog">Open</div> : null}
    </main>
  );
}

/** A campaign page's sortable list (the row under its grip) and Today's rows (no tab stops). */
function Deep() {
  useGlobalShortcuts();
  return (
    <main>
      <ul>
        <li data-index="0">
          <button type="button" data-drag-handle>
            Grip
          </button>
          <div>
            <button type="button" data-item-id="1" tabIndex={0}>
              Sortable
            </button>
          </div>
        </li>
      </ul>
      <ul>
        {['Today one', 'Today two'].map((title, i) => (
          <li key={title}>
            <div data-item-id={10 + i}>
              <button type="button">Complete {title}</button>
              <div data-row-title>
                <a href={`/tasks/${10 + i}`}>{title}</a>
              </div>
            </div>
          </li>
        ))}
      </ul>
    </main>
  );
}

const original = HTMLElement.prototype.getClientRects;
beforeEach(() => {
  // jsdom lays nothing out: every element counts as shown here.
  HTMLElement.prototype.getClientRects = () => [{}] as unknown as DOMRectList;
});
afterEach(() => {
  HTMLElement.prototype.getClientRects = original;
  cleanup();
});

describe('single-key shortcuts', () => {
  it("'q' outside a text field goes to the page's quick add", () => {
    const { getByLabelText, getByText } = render(<Page />);
    getByText('Elsewhere').focus();
    fireEvent.keyDown(getByText('Elsewhere'), { key: 'q' });
    expect(document.activeElement).toBe(getByLabelText('Todo title'));
  });

  it("'q' typed into a field is just a letter", () => {
    const { getByLabelText } = render(<Page />);
    const title = getByLabelText('Todo title');
    title.focus();
    const typed = fireEvent.keyDown(title, { key: 'q' });
    expect(typed).toBe(true);
  });

  it('J or K with no row focused goes to the first row', () => {
    const { getByText } = render(<Page />);
    fireEvent.keyDown(document.body, { key: 'j' });
    expect(document.activeElement).toBe(getByText('First'));
    getByText('Elsewhere').focus();
    fireEvent.keyDown(getByText('Elsewhere'), { key: 'k' });
    expect(document.activeElement).toBe(getByText('First'));
  });

  it("J and K walk a sortable list's rows and Today's rows, whose rows are no tab stops (issue 50)", () => {
    const { getByText } = render(<Deep />);
    fireEvent.keyDown(document.body, { key: 'j' });
    expect(document.activeElement).toBe(getByText('Sortable'));
    // From a control in no row, as from the grip: the first row.
    getByText('Grip').focus();
    fireEvent.keyDown(getByText('Grip'), { key: 'j' });
    expect(document.activeElement).toBe(getByText('Sortable'));
    fireEvent.keyDown(getByText('Sortable'), { key: 'j' });
    expect(document.activeElement).toBe(getByText('Today one'));
    fireEvent.keyDown(getByText('Today one'), { key: 'j' });
    expect(document.activeElement).toBe(getByText('Today two'));
    fireEvent.keyDown(getByText('Today two'), { key: 'j' });
    expect(document.activeElement).toBe(getByText('Today two'));
    fireEvent.keyDown(getByText('Today two'), { key: 'k' });
    expect(document.activeElement).toBe(getByText('Today one'));
  });

  it('leaves the keys to an open dialog', () => {
    const { getByText } = render(<Page dialog />);
    getByText('Elsewhere').focus();
    fireEvent.keyDown(getByText('Elsewhere'), { key: 'q' });
    fireEvent.keyDown(getByText('Elsewhere'), { key: 'j' });
    expect(document.activeElement).toBe(getByText('Elsewhere'));
  });
});
