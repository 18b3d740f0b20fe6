import { describe, expect, it } from 'vitest';
import { ACTION_TONE } from './ActivityFeed';

describe('activity entries', () => {
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
