// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mentionToken } from '../../shared/comments';
import { CommentBody } from './CommentBody';
import { encodeMentions } from './mutations';

afterEach(cleanup);

describe('a comment on screen', () => {
  it('shows markup as the characters typed, never as HTML', () => {
    const { container } = render(
      <CommentBody comment={{ body: '<img src=x onerror=alert(1)>\n<b>bold</b>', mentions: [] }} />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(container.textContent).toBe('<img src=x onerror=alert(1)>\n<b>bold</b>');
  });

  it('makes web links links and leaves javascript: links as text', () => {
    render(
      <CommentBody comment={{ body: 'See example.com/a?b=1 or javascript:alert(1) now', mentions: [] }} />,
    );
    const links = screen.getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://example.com/a?b=1']);
    expect(links[0]?.getAttribute('rel')).toContain('noopener');
    expect(screen.getByText(/javascript:alert\(1\) now/)).toBeTruthy();
  });

  it('shows a mention by the person’s name', () => {
    render(
      <CommentBody comment={{ body: `Ask ${mentionToken(7)}`, mentions: [{ id: 7, name: 'Sam Lee' }] }} />,
    );
    expect(screen.getByText('@Sam Lee')).toBeTruthy();
  });
});

describe('a typed comment going out', () => {
  it('writes each picked person by id, the longer name first', () => {
    expect(
      encodeMentions('@Sam Lee and @Sam, see @Samuel', [
        { id: 1, name: 'Sam' },
        { id: 2, name: 'Sam Lee' },
      ]),
    ).toEqual({
      body: `${mentionToken(2)} and ${mentionToken(1)}, see @Samuel`,
      mentions: [
        { id: 2, name: 'Sam Lee' },
        { id: 1, name: 'Sam' },
      ],
    });
  });
});
