import { describe, expect, it } from 'vitest';
import { upgradeView } from './upgradeState';

describe('upgradeView', () => {
  it('shows real progress: items sent of items to send', () => {
    expect(upgradeView({ sent: 0, total: 4, done: false }, true, false)).toMatchObject({
      phase: 'syncing',
      percent: 0,
    });
    expect(upgradeView({ sent: 2, total: 4, done: false }, true, false)).toMatchObject({
      phase: 'syncing',
      percent: 50,
      message: 'Syncing with server...',
    });
    expect(upgradeView({ sent: 4, total: 4, done: true }, true, false)).toMatchObject({
      phase: 'complete',
      message: 'Upgrade complete!',
    });
  });

  it('says when the upload waits for the connection', () => {
    expect(upgradeView({ sent: 1, total: 4, done: false }, false, false).phase).toBe('offline');
  });

  it('completes with nothing to upload once the grace period is over', () => {
    expect(upgradeView(null, true, false).phase).toBe('waiting');
    expect(upgradeView(null, true, true).phase).toBe('complete');
  });
});
