import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { durationInput, ESTIMATE_MAX_MINUTES, formatDuration, parseDuration } from './duration';

describe('durations', () => {
  it.each([
    ['2h', 120],
    ['1h 30m', 90],
    ['1h30m', 90],
    ['90m', 90],
    ['90', 90],
    ['1.5h', 90],
    ['1:30', 90],
    ['2 hours', 120],
    ['45 min', 45],
    ['1d', 480],
    ['0', 0],
    ['.5h', 30],
  ])('reads %s as %i minutes', (text, minutes) => {
    expect(parseDuration(text)).toBe(minutes);
  });

  it.each(['', 'soon', '2x', '1h 2h', '-5', 'h', '1:75', '100001', '300d'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeNull();
  });

  it('formats as pages show it', () => {
    expect(formatDuration(80)).toBe('1 h 20 m');
    expect(formatDuration(180)).toBe('3 h');
    expect(formatDuration(5)).toBe('5 m');
  });

  it('reads back what it writes for editing, every estimate in range', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: ESTIMATE_MAX_MINUTES }), (minutes) => {
        expect(parseDuration(durationInput(minutes))).toBe(minutes);
        expect(parseDuration(formatDuration(minutes))).toBe(minutes);
      }),
    );
  });
});
