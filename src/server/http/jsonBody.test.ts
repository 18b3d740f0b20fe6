import { describe, expect, it } from 'vitest';
import { jsonKeysExceed, jsonNestingExceeds } from './jsonBody';

const flat = (keys: number) => `{${Array.from({ length: keys }, (_, i) => `"k${i}":1`).join(',')}}`;

describe('counting the keys of a JSON body before parsing it', () => {
  it('finds an object with more keys than allowed, however it is nested (F1)', () => {
    const limits = { perObject: 10, total: 1000 };
    expect(jsonKeysExceed(flat(10), limits)).toBe(false);
    expect(jsonKeysExceed(flat(11), limits)).toBe(true);
    expect(jsonKeysExceed(`{"a":[1,{"b":${flat(11)}}]}`, limits)).toBe(true);
    // Ten keys in each of two sibling objects: neither holds more than ten.
    expect(jsonKeysExceed(`[${flat(10)},${flat(10)}]`, limits)).toBe(false);
    // The outer object's count goes on after an inner object closes.
    expect(jsonKeysExceed(`{"a":${flat(10)},${flat(10).slice(1, -1)}}`, limits)).toBe(true);
  });

  it('finds more keys in the whole body than allowed, even when spread over many objects (F1)', () => {
    const many = `[${Array.from({ length: 101 }, () => flat(10)).join(',')}]`;
    expect(jsonKeysExceed(many, { perObject: 10, total: 1010 })).toBe(false);
    expect(jsonKeysExceed(many, { perObject: 10, total: 1009 })).toBe(true);
  });

  it('does not count colons, braces or escaped quotes inside strings (F1)', () => {
    const limits = { perObject: 2, total: 2 };
    expect(jsonKeysExceed('{"a:b:c":"x:y:z","q\\":":"{\\"r\\":1,\\"s\\":2}"}', limits)).toBe(false);
    expect(jsonKeysExceed('["a:1", "b:2", "c:3", {"d":1}]', limits)).toBe(false);
  });

  it('leaves the nesting check as it was (F1)', () => {
    expect(jsonNestingExceeds('[[[]]]', 3)).toBe(false);
    expect(jsonNestingExceeds('[[[[]]]]', 3)).toBe(true);
  });
});
