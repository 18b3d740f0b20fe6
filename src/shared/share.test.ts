import { describe, expect, it } from 'vitest';
import { readShareQuery, sharedPrefill } from './share';

const words = (title: string, text: string, url: string) => ({ title, text, url });

describe('quick add from a share', () => {
  it('takes the shared title, with the text and the url in the description', () => {
    expect(sharedPrefill(words('Broken gate', 'By the car park', 'https://maps.example/gate'))).toEqual({
      title: 'Broken gate',
      description: 'By the car park\n\nhttps://maps.example/gate',
    });
  });

  it('without a title takes the text’s first line, the rest of it going to the description', () => {
    expect(sharedPrefill(words('', 'Call the roofer\nabout the leak\nbefore Friday', ''))).toEqual({
      title: 'Call the roofer',
      description: 'about the leak\nbefore Friday',
    });
  });

  it('names a link once when the text already holds it (what most phone browsers share)', () => {
    expect(
      sharedPrefill(words('Quote 42', 'Read this https://example.com/q42', 'https://example.com/q42')),
    ).toEqual({ title: 'Quote 42', description: 'Read this https://example.com/q42' });
  });

  it('a bare link is the title; files alone give the first file’s name', () => {
    expect(sharedPrefill(words('', '', 'https://example.com/a'))).toEqual({
      title: 'https://example.com/a',
      description: '',
    });
    expect(sharedPrefill(words('', '', ''), ['IMG_2041.jpg', 'IMG_2042.jpg'])).toEqual({
      title: 'IMG_2041.jpg',
      description: '',
    });
    expect(sharedPrefill(words(' ', '\n', ''))).toEqual({ title: '', description: '' });
  });

  it('a title too long for an item is cut, its whole text kept in the description', () => {
    const long = 'word '.repeat(80).trim();
    const { title, description } = sharedPrefill(words(long, 'more', ''));
    expect([...title].length).toBe(255);
    expect(title.endsWith('…')).toBe(true);
    expect(description).toBe(`${long}\n\nmore`);
  });

  it('reads the share query: an id, the worker’s failure, the server’s ask to share again, or nothing', () => {
    expect(readShareQuery('0B4F6A8E-1111-4222-8333-944455556666')).toEqual({
      kind: 'share',
      id: '0b4f6a8e-1111-4222-8333-944455556666',
    });
    expect(readShareQuery('failed')).toEqual({ kind: 'failed' });
    expect(readShareQuery('again')).toEqual({ kind: 'again' });
    expect(readShareQuery('<script>')).toBeNull();
    expect(readShareQuery('')).toBeNull();
    expect(readShareQuery(null)).toBeNull();
  });
});
