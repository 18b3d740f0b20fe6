import { describe, expect, it } from 'vitest';
import { keyboardKindOf } from './keyboardKind';

describe('keyboardKindOf', () => {
  it('tells a touch screen, an Apple keyboard and any other keyboard apart', () => {
    expect(keyboardKindOf({ platform: 'iPhone', coarsePointer: true })).toBe('touch');
    expect(keyboardKindOf({ platform: 'Linux armv8l', coarsePointer: true })).toBe('touch');
    expect(keyboardKindOf({ platform: 'MacIntel', coarsePointer: false })).toBe('apple');
    expect(keyboardKindOf({ platform: 'iPad', coarsePointer: false })).toBe('apple');
    expect(keyboardKindOf({ platform: 'Win32', coarsePointer: false })).toBe('other');
    expect(keyboardKindOf({ platform: '', coarsePointer: false })).toBe('other');
  });
});
