import { describe, expect, it } from 'vitest';
import { storageText } from './DataSafetySections';

describe('the storage line', () => {
  it('says how much the device stores and whether the browser keeps it', () => {
    expect(storageText({ items: 12, bytes: 3.4 * 1024 * 1024, persisted: true })).toBe(
      'Stored on this device: 12 items, 3.4 MB (kept)',
    );
    expect(storageText({ items: 1, bytes: 1000, persisted: false })).toBe(
      'Stored on this device: 1 item, < 0.1 MB (may be cleared by the browser)',
    );
    expect(storageText({ items: 0, bytes: null, persisted: null })).toBe(
      'Stored on this device: 0 items (may be cleared by the browser)',
    );
  });
});
