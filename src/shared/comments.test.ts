import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bodyParts,
  bodyText,
  COMMENT_BODY_MAX,
  commentCreateSchema,
  commentExcerpt,
  commentMentions,
  commentPatchSchema,
  commentRecipients,
  escapeTypedTokens,
  MENTIONS_MAX,
  mayDeleteComment,
  mayEditComment,
  mentionedInBody,
  mentionToken,
} from './comments';

const errors = (input: unknown) => {
  const parsed = commentCreateSchema.safeParse(input);
  return parsed.success ? null : parsed.error.issues.map((i) => i.message);
};

describe('a comment body', () => {
  it('is trimmed and kept as plain text, line breaks and markup included', () => {
    const parsed = commentCreateSchema.parse({ body: '  <img src=x onerror=alert(1)>\nsecond line  ' });
    expect(parsed.body).toBe('<img src=x onerror=alert(1)>\nsecond line');
  });

  it('is refused when empty or only white space', () => {
    expect(errors({ body: '' })).toEqual(['The comment is required.']);
    expect(errors({ body: '  \n ' })).toEqual(['The comment is required.']);
    expect(errors({})).toEqual(['The comment is required.']);
  });

  it('holds at most 5,000 characters after trimming', () => {
    expect(errors({ body: `  ${'a'.repeat(COMMENT_BODY_MAX)}  ` })).toBeNull();
    expect(errors({ body: 'a'.repeat(COMMENT_BODY_MAX + 1) })).toEqual([
      'A comment must be 5,000 characters or less.',
    ]);
  });

  it('refuses a NUL character, naming the comment', () => {
    expect(errors({ body: 'a\u0000b' })).toEqual(['The comment must not contain a NUL character.']);
  });

  it('takes a uuid and a list of mentioned ids, and nothing else', () => {
    expect(errors({ body: 'hi', uuid: 'not-a-uuid' })).toEqual(['Must be a UUID.']);
    expect(errors({ body: 'hi', mentions: [0] })).toEqual(['A mention must be a user id.']);
    expect(errors({ body: 'hi', mentions: 'x' })).toEqual(['Mentions must be a list of user ids.']);
    expect(errors({ body: 'hi', html: true })).not.toBeNull();
    expect(commentPatchSchema.safeParse({ body: 'x', mentions: [] }).success).toBe(false);
  });
});

describe('mentions', () => {
  it('are read from the body by user id, each once, in order', () => {
    expect(mentionedInBody(`Hi ${mentionToken(3)} and ${mentionToken(12)}, ${mentionToken(3)}!`)).toEqual([
      3, 12,
    ]);
    expect(mentionedInBody('@[0] @[abc] @Sam [4]')).toEqual([]);
  });

  it('join the listed ids to the body’s without doubling', () => {
    expect(commentMentions(`${mentionToken(2)} look`, [5, 2])).toEqual([2, 5]);
  });

  it('show as the person’s name; a token of someone not listed shows as @unknown, never its id', () => {
    const mentions = [{ id: 2, name: 'Sam' }];
    expect(bodyParts(`Ask ${mentionToken(2)} or @[9].`, mentions)).toEqual([
      { kind: 'text', text: 'Ask ' },
      { kind: 'mention', id: 2, name: 'Sam' },
      { kind: 'text', text: ' or ' },
      { kind: 'unknown', length: 4 },
      { kind: 'text', text: '.' },
    ]);
    expect(bodyText(`${mentionToken(2)}: done`, mentions)).toBe('@Sam: done');
    expect(bodyText(`${mentionToken(2)} and @[9]`, mentions)).toBe('@Sam and @unknown');
  });

  it('account for every character of the body, and name nobody the comment does not list (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat({ max: 99 }), (text, id) => {
        const body = `${text}${mentionToken(id + 1)}${text}`;
        const parts = bodyParts(body, []);
        const length = parts.reduce(
          (n, p) => n + (p.kind === 'text' ? p.text.length : p.kind === 'unknown' ? p.length : 0),
          0,
        );
        expect(length).toBe(body.length);
        expect(parts.some((p) => p.kind === 'mention')).toBe(false);
        expect(bodyText(body, [])).not.toContain(mentionToken(id + 1));
      }),
    );
  });

  it('typed by hand as `@[12]` stay the characters typed and mention nobody', () => {
    const typed = escapeTypedTokens('see @[12] and @[3]');
    expect(mentionedInBody(typed)).toEqual([]);
    expect(commentMentions(typed)).toEqual([]);
    expect(bodyText(typed, [{ id: 12, name: 'Sam' }]).replaceAll('\u2060', '')).toBe('see @[12] and @[3]');
    expect(escapeTypedTokens(typed)).toBe(typed);
  });
});

describe('K25: the mention cap', () => {
  const tokens = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => mentionToken(from + i)).join(' ');

  it('counts body tokens and listed ids together, each person once', () => {
    const ok = commentCreateSchema.safeParse({ body: tokens(1, MENTIONS_MAX), mentions: [1, 2, 3] });
    expect(ok.success).toBe(true);
    const tooMany = commentCreateSchema.safeParse({
      body: tokens(1, 30),
      mentions: [31, 32].concat(Array.from({ length: 19 }, (_, i) => 40 + i)),
    });
    expect(tooMany.success).toBe(false);
    expect(tooMany.error?.issues[0]?.path).toEqual(['mentions']);
    expect(commentCreateSchema.safeParse({ body: tokens(1, MENTIONS_MAX + 1) }).success).toBe(false);
    expect(commentPatchSchema.safeParse({ body: tokens(1, MENTIONS_MAX + 1) }).success).toBe(false);
    expect(commentPatchSchema.safeParse({ body: tokens(1, MENTIONS_MAX) }).success).toBe(true);
  });
});

describe('K2: who may edit and delete a comment', () => {
  it('K2: lets only the author edit', () => {
    expect(mayEditComment(1, 1)).toBe(true);
    expect(mayEditComment(2, 1)).toBe(false);
  });

  it('K2: lets the author delete, and the campaign’s owner delete any, but no editor or viewer', () => {
    expect(mayDeleteComment(1, 1, 'viewer')).toBe(true);
    expect(mayDeleteComment(2, 1, 'owner')).toBe(true);
    expect(mayDeleteComment(2, 1, 'editor')).toBe(false);
    expect(mayDeleteComment(2, 1, 'viewer')).toBe(false);
    expect(mayDeleteComment(2, 1, null)).toBe(false);
  });
});

describe('K1: who hears of a new comment', () => {
  const base = { authorId: 1, creatorId: 2, assigneeId: 3, commenterIds: [4], mentionIds: [], mutedIds: [] };

  it('K1: tells the creator, assignee and earlier commenters `commented`, never the author', () => {
    expect(commentRecipients({ ...base, commenterIds: [4, 1, 2] })).toEqual([
      { userId: 2, kind: 'commented' },
      { userId: 3, kind: 'commented' },
      { userId: 4, kind: 'commented' },
    ]);
    expect(commentRecipients({ ...base, authorId: 2, assigneeId: null, commenterIds: [] })).toEqual([]);
  });

  it('K1: tells a mentioned person `mentioned` and not `commented` as well', () => {
    expect(commentRecipients({ ...base, mentionIds: [3, 5, 1] })).toEqual([
      { userId: 3, kind: 'mentioned' },
      { userId: 5, kind: 'mentioned' },
      { userId: 2, kind: 'commented' },
      { userId: 4, kind: 'commented' },
    ]);
  });

  it('K1: skips `commented` for whoever muted the item, while `mentioned` still arrives', () => {
    expect(commentRecipients({ ...base, mutedIds: [2, 3], mentionIds: [3] })).toEqual([
      { userId: 3, kind: 'mentioned' },
      { userId: 4, kind: 'commented' },
    ]);
  });

  it('K1: tells nobody twice and never the author (property)', () => {
    const id = fc.integer({ min: 1, max: 8 });
    fc.assert(
      fc.property(
        id,
        id,
        fc.option(id, { nil: null }),
        fc.array(id),
        fc.array(id),
        fc.array(id),
        (authorId, creatorId, assigneeId, commenterIds, mentionIds, mutedIds) => {
          const out = commentRecipients({
            authorId,
            creatorId,
            assigneeId,
            commenterIds,
            mentionIds,
            mutedIds,
          });
          const ids = out.map((r) => r.userId);
          expect(new Set(ids).size).toBe(ids.length);
          expect(ids).not.toContain(authorId);
          for (const r of out) {
            if (r.kind === 'commented') expect(mutedIds).not.toContain(r.userId);
            else expect(mentionIds).toContain(r.userId);
          }
        },
      ),
    );
  });
});

describe('a comment’s first words', () => {
  const mentions = [{ id: 2, name: 'Sam' }];

  it('is the whole text on one line when short, mentions by name', () => {
    expect(commentExcerpt(`Ask ${mentionToken(2)}\n\nabout   the van`, mentions)).toBe(
      'Ask @Sam about the van',
    );
  });

  it('is cut at a word with an ellipsis when long, without a trailing comma', () => {
    const body = 'One two three, four five six seven eight nine ten';
    expect(commentExcerpt(body, [], 16)).toBe('One two three…');
    expect(commentExcerpt(body, [], 20)).toBe('One two three, four…');
    expect(commentExcerpt('Supercalifragilistic expialidocious', [], 10)).toBe('Supercalif…');
  });

  it('never runs past its limit, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (body) => {
        expect([...commentExcerpt(body, [], 40)].length).toBeLessThanOrEqual(41);
      }),
    );
  });
});
