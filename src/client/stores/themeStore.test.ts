import { describe, expect, it } from 'vitest';
import { resolvesToDark } from './themeStore';

describe('theme', () => {
  it('follows the OS only for System', () => {
    expect(resolvesToDark('dark', false)).toBe(true);
    expect(resolvesToDark('light', true)).toBe(false);
    expect(resolvesToDark('system', true)).toBe(true);
    expect(resolvesToDark('system', false)).toBe(false);
  });
});
