import { describe, expect, it } from 'vitest';
import { ACTION_TONE, metadataValue } from './ActivityFeed';

describe('activity entries', () => {
  it('reads a change as old → new, with underscores as spaces', () => {
    expect(metadataValue({ old: 'pending', new: 'in_progress' })).toBe('pending → in progress');
    expect(metadataValue({ old: null, new: 3 })).toBe('none → 3');
  });

  it('reads flags and lists in words', () => {
    expect(metadataValue(true)).toBe('yes');
    expect(metadataValue(['a', 'b'])).toBe('a, b');
  });

  it('colours the actions as the spec says', () => {
    expect(ACTION_TONE).toMatchObject({
      created: 'green',
      updated: 'blue',
      deleted: 'red',
      completed: 'purple',
      assigned: 'orange',
    });
  });
});
