import { describe, expect, it } from 'vitest';
import { swappedPath } from './idSwapRoute';

describe('swappedPath', () => {
  it('moves an open task, todo or campaign page from the temporary id to the server id', () => {
    expect(swappedPath('/tasks/-3', -3, 42)).toBe('/tasks/42');
    expect(swappedPath('/todos/-5', -5, 43)).toBe('/todos/43');
    expect(swappedPath('/campaigns/-7/', -7, 8)).toBe('/campaigns/8');
  });

  it('leaves other pages and other items alone', () => {
    expect(swappedPath('/tasks/-3', -4, 42)).toBeNull();
    expect(swappedPath('/queue', -3, 42)).toBeNull();
    expect(swappedPath('/tasks/-30', -3, 42)).toBeNull();
  });
});
