// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { eachTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import DataLossConfirm, { CLEAR_CONFIRM_TEXT } from './DataLossConfirm';

// Each test renders over a client of its own (renderWithApp takes the newest).
eachTestClient();

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

describe('DataLossConfirm names the files not uploaded yet', () => {
  it('A14: Clear Local Data names the files waiting to upload and their size before they go', () => {
    renderWithApp(
      <DataLossConfirm
        open
        onOpenChange={() => {}}
        action="clear"
        pending={0}
        onConfirm={() => {}}
        onExport={() => {}}
        waitingFiles={{ count: 2, bytes: 8.4 * 1024 * 1024 }}
      />,
    );
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toContain(CLEAR_CONFIRM_TEXT);
    expect(dialog.textContent).toContain('2 files waiting to upload (8.4 MB) would be lost.');
    expect(screen.getByRole('button', { name: 'Clear and lose 2 files' })).toBeTruthy();
  });
});
