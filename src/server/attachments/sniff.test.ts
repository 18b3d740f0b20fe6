import { describe, expect, it } from 'vitest';
import { BINARY_TYPE, HTML_TYPE, SVG_TYPE, TEXT_TYPE, textTypeOf } from './sniff';

const text = (s: string) => new TextEncoder().encode(s);

describe('what bytes file-type does not know read as', () => {
  it('A7: UTF-8 text is plain text, a BOM and an empty file too', () => {
    expect(textTypeOf(text('Shopping list\n- milk\n'), true)).toBe(TEXT_TYPE);
    expect(textTypeOf(text('\uFEFFnotes'), true)).toBe(TEXT_TYPE);
    expect(textTypeOf(new Uint8Array(), true)).toBe(TEXT_TYPE);
    expect(textTypeOf(text('3 < 4 and <b is not a tag'), true)).toBe(TEXT_TYPE);
  });

  it('A7: a NUL or bytes that are not UTF-8 are application/octet-stream', () => {
    expect(textTypeOf(new Uint8Array([0x41, 0x00, 0x42]), true)).toBe(BINARY_TYPE);
    expect(textTypeOf(new Uint8Array([0x41, 0xc3, 0x28]), true)).toBe(BINARY_TYPE);
  });

  it('a character cut at the head’s end is no fault, unless the head is the whole file', () => {
    const cut = text('café').subarray(0, 4);
    expect(textTypeOf(cut, false)).toBe(TEXT_TYPE);
    expect(textTypeOf(cut, true)).toBe(BINARY_TYPE);
  });

  it('A9: markup a browser would run is HTML or SVG, which never open in place', () => {
    for (const html of [
      '<!DOCTYPE html><html></html>',
      '  \n<html lang="en">',
      '<script>alert(1)</script>',
      '<!-- a comment --><p>x</p>',
      'Notes first\n<iframe src="https://example.com"></iframe>',
      'x <body onload=alert(1)>',
    ])
      expect(textTypeOf(text(html), true), html).toBe(HTML_TYPE);
    for (const svg of [
      '<svg xmlns="http://www.w3.org/2000/svg"/>'.replace('/>', '>'),
      '<!-- drawn --><svg viewBox="0 0 1 1">',
      '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN"><svg width="1">',
    ])
      expect(textTypeOf(text(svg), true), svg).toBe(SVG_TYPE);
  });
});
