import { describe, expect, it } from 'vitest';
import { upgradeView } from './upgradeState';

describe('upgradeView', () => {
  it('shows real progress: items sent of items to send', () => {
    expect(upgradeView({ sent: 0, total: 4, done: false }, true)).toMatchObject({
      phase: 'syncing',
      percent: 0,
    });
    expect(upgradeView({ sent: 2, total: 4, done: false }, true)).toMatchObject({
      phase: 'syncing',
      percent: 50,
      message: 'Syncing with server...',
    });
    expect(upgradeView({ sent: 4, total: 4, done: true }, true)).toMatchObject({
      phase: 'complete',
      message: 'Upgrade complete!',
    });
  });

  it('says when the upload waits for the connection', () => {
    expect(upgradeView({ sent: 1, total: 4, done: false }, false).phase).toBe('offline');
  });

  it('is complete at once with nothing to upload (the sign-in recorded its move before the dialog opened)', () => {
    expect(upgradeView(null, true).phase).toBe('complete');
    expect(upgradeView({ sent: 0, total: 0, done: true }, false).phase).toBe('complete');
  });
});
