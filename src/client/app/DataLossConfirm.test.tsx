// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { OutpostClient } from '../data/client';
import DataLossConfirm, { CLEAR_CONFIRM_TEXT } from './DataLossConfirm';

let client: OutpostClient;

beforeEach(() => {
  client = makeTestClient();
});

afterEach(() => {
  cleanup();
  client.close();
});

function ask(localOnly: number) {
  renderWithApp(
    <DataLossConfirm
      open
      onOpenChange={() => {}}
      action="clear"
      pending={0}
      onConfirm={() => {}}
      onExport={() => {}}
      localOnly={localOnly}
    />,
  );
  return screen.getByRole('alertdialog');
}

describe('DataLossConfirm for Clear Local Data', () => {
  it("asks a guest with items the spec's question and says beside it what would be lost", () => {
    const dialog = ask(1);
    expect(CLEAR_CONFIRM_TEXT).toBe('Are you sure you want to clear all local data? This cannot be undone.');
    expect(dialog.textContent).toContain(CLEAR_CONFIRM_TEXT);
    expect(dialog.textContent).toContain('1 item exists only on this device and would be lost.');
    expect(screen.getByRole('button', { name: 'Export first' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Clear and lose 1 item' })).toBeTruthy();
  });

  it("asks only the spec's question when nothing would be lost", () => {
    const dialog = ask(0);
    expect(dialog.textContent).toContain(CLEAR_CONFIRM_TEXT);
    expect(dialog.textContent).not.toContain('would be lost');
    expect(screen.getByRole('button', { name: 'Clear Local Data' })).toBeTruthy();
  });
});
