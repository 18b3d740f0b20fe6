import { describe, expect, it } from 'vitest';
import { countLabels, filterByLabel, hasLabel, labelHref, withoutLabel } from './labels';

describe('labels', () => {
  it('matches without case and trims the label asked for', () => {
    expect(hasLabel({ labels: ['Errand', 'home'] }, 'errand')).toBe(true);
    expect(hasLabel({ labels: ['Errand'] }, ' ERRAND ')).toBe(true);
    expect(hasLabel({ labels: ['Errand'] }, 'err')).toBe(false);
    expect(hasLabel({}, 'errand')).toBe(false);
    expect(hasLabel({ labels: null }, 'errand')).toBe(false);
  });

  it('removes a label ignoring case', () => {
    expect(withoutLabel(['Errand', 'home'], 'errand')).toEqual(['home']);
    expect(withoutLabel(['Errand'], 'work')).toEqual(['Errand']);
  });

  it('counts the labels in a list by name ignoring case, first spelling shown, sorted', () => {
    const items = [{ labels: ['Work', 'errand'] }, { labels: ['work'] }, {}, { labels: ['Errand', 'a'] }];
    expect(countLabels(items)).toEqual([
      { name: 'a', count: 1 },
      { name: 'errand', count: 2 },
      { name: 'Work', count: 2 },
    ]);
    expect(countLabels([])).toEqual([]);
  });

  it('filters a list to a label, or leaves it whole without one', () => {
    const items = [{ id: 1, labels: ['Errand'] }, { id: 2 }, { id: 3, labels: ['errand', 'x'] }];
    expect(filterByLabel(items, 'ERRAND').map((i) => i.id)).toEqual([1, 3]);
    expect(filterByLabel(items, null)).toBe(items);
  });

  it('encodes a label as one path segment', () => {
    expect(labelHref('errand')).toBe('/labels/errand');
    expect(labelHref('on hold/soon')).toBe('/labels/on%20hold%2Fsoon');
  });
});
