// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bodyText, mentionedInBody, mentionToken } from '../../shared/comments';
import { CommentBody } from './CommentBody';
import { Composer } from './Composer';
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

  it('K28: ends a link at a bidi override or a zero-width character, never carrying one in its address', () => {
    const body = 'Get https://example.com/invoice\u202efdp.exe and https://ex\u200bample.org/x now';
    const { container } = render(<CommentBody comment={{ body, mentions: [] }} />);
    const hrefs = screen.getAllByRole('link').map((a) => a.getAttribute('href') ?? '');
    expect(hrefs).toEqual(['https://example.com/invoice', 'https://ex', 'https://ample.org/x']);
    for (const href of hrefs) expect(href).not.toMatch(/[\u200b\u202e]/);
    expect(container.textContent).toBe(body);
  });

  it('shows a mention by the person’s name', () => {
    render(
      <CommentBody comment={{ body: `Ask ${mentionToken(7)}`, mentions: [{ id: 7, name: 'Sam Lee' }] }} />,
    );
    expect(screen.getByText('@Sam Lee')).toBeTruthy();
  });
});

describe('a mention the comment does not name', () => {
  it('shows as @unknown, with no id anywhere on the page', () => {
    const { container } = render(
      <CommentBody
        comment={{
          body: `Ask ${mentionToken(7)} and ${mentionToken(4242)}`,
          mentions: [{ id: 7, name: 'Sam Lee' }],
        }}
      />,
    );
    expect(container.textContent).toBe('Ask @Sam Lee and @unknown');
    expect(container.innerHTML).not.toContain('4242');
    expect(container.querySelectorAll('[data-mention]')).toHaveLength(1);
  });

  it('typed by hand as `@[12]` goes out as the characters typed, mentioning nobody', () => {
    const { body, mentions } = encodeMentions('see @[12]', []);
    expect(mentionedInBody(body)).toEqual([]);
    expect(mentions).toEqual([]);
    const { container } = render(<CommentBody comment={{ body, mentions: [] }} />);
    expect(container.textContent?.replaceAll('\u2060', '')).toBe('see @[12]');
  });
});

describe('editing a comment with mentions', () => {
  it('shows the names in the edit box and keeps them as mentions when saved', () => {
    const mentions = [
      { id: 7, name: 'Sam Lee' },
      { id: 9, name: 'Ana' },
    ];
    const stored = `${mentionToken(7)}, ask ${mentionToken(9)} too`;
    const onSend = vi.fn();
    render(
      <Composer
        people={[]}
        label="Edit comment"
        submitLabel="Save"
        initial={bodyText(stored, mentions)}
        initialPicked={mentions}
        onCancel={() => undefined}
        onSend={onSend}
      />,
    );
    const field = screen.getByLabelText('Edit comment') as HTMLTextAreaElement;
    expect(field.value).toBe('@Sam Lee, ask @Ana too');
    fireEvent.change(field, { target: { value: '@Sam Lee, ask @Ana first' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSend).toHaveBeenCalledWith(`${mentionToken(7)}, ask ${mentionToken(9)} first`, [
      { id: 7, name: 'Sam Lee' },
      { id: 9, name: 'Ana' },
    ]);
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
