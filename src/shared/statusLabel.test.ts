import { describe, expect, it } from 'vitest';
import { STATUS_LABELS, statusLabel } from './statusLabel';

describe('statusLabel', () => {
  it('shows each status in words', () => {
    expect(statusLabel('pending')).toBe('Pending');
    expect(statusLabel('in_progress')).toBe('In progress');
    expect(statusLabel('completed')).toBe('Completed');
  });

  it('has a word for every status and none shows an underscore', () => {
    for (const [status, word] of Object.entries(STATUS_LABELS)) {
      expect(statusLabel(status)).toBe(word);
      expect(word).not.toMatch(/_/);
      expect(word.charAt(0)).toBe(word.charAt(0).toUpperCase());
    }
  });

  it('replaces underscores with spaces and capitalises an unknown status', () => {
    expect(statusLabel('on_hold')).toBe('On hold');
    expect(statusLabel('BLOCKED')).toBe('Blocked');
  });

  it('is empty for no status', () => {
    expect(statusLabel('')).toBe('');
    expect(statusLabel(null)).toBe('');
    expect(statusLabel(undefined)).toBe('');
  });
});
