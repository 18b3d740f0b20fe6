import { z } from 'zod';
import type { Role } from './membership';
import { text } from './schemas';
import { isBlankText, stripControlsMultiline } from './text';

/**
 * Comments on an item (ARCHITECTURE §4 'Comments', §5 'Comments', 'Notifications'): the request
 * shapes, how a mention is written in a body, who may edit or delete a comment, and who hears of a
 * new one. Pure, so the server's checks, the device's queued payloads and the tests read one table.
 *
 * A mention is stored by user id, never by name: the body carries `@[12]` where the person was picked,
 * and the comment's `mentions` list names them, so a renamed person is shown by their new name and two
 * people of one name are never confused. A reader's screen shows `@Name` in its place.
 */

/** Longest body, in characters after trimming (§4). */
export const COMMENT_BODY_MAX = 5_000;
/** Comments a page of `GET /api/items/{id}/comments` holds (§4). */
export const COMMENTS_PER_PAGE = 50;
/** Most people one comment may mention: a body of 5,000 characters has room for far fewer names. */
export const MENTIONS_MAX = 50;

/** The 422 message for a comment that mentions more than MENTIONS_MAX people, by token or by list. */
export const TOO_MANY_MENTIONS = `At most ${MENTIONS_MAX} people can be mentioned in one comment.`;

/**
 * Most `mentioned` and `commented` entries one person gets a minute (K24), as pushes are bounded
 * (PUSHES_PER_MINUTE): a flood of comments, however many people write it, lists no more for them.
 */
export const COMMENT_NOTICES_PER_MINUTE = 10;

/** The one 422 message for a mention of someone who cannot see the item, whatever the reason (no oracle). */
export const MENTION_NOT_ALLOWED = 'You can only mention people who can see this item.';

/** A comment as the API answers it (§4). */
export interface Comment {
  id: number;
  uuid: string;
  item_id: number;
  user: { id: number; name: string };
  body: string;
  mentions: { id: number; name: string }[];
  created_at: string;
  updated_at: string;
  edited: boolean;
}

/** A deleted comment as a sync page carries it. */
export interface CommentTombstone {
  id: number;
  uuid: string;
  item_id: number;
  deleted_at: string;
}

/**
 * A live comment as a sync page carries it (K13): the API's comment and its item's uuid, so a device
 * files it under the item's timeline even before the item's own row has arrived.
 */
export interface SyncedComment extends Comment {
  item_uuid: string | null;
}

/** One entry of a sync page's `comments` (K13). */
export type SyncCommentChange = SyncedComment | CommentTombstone;

/** True for an entry that removes the comment from the device. */
export function isCommentTombstone(change: SyncCommentChange): change is CommentTombstone {
  return 'deleted_at' in change;
}

/** What a sync page adds for comments (K13); absent on pages of servers from before them. */
export interface SyncPageComments {
  comments?: SyncCommentChange[];
}

const mentionId = z
  .number({ error: 'A mention must be a user id.' })
  .int('A mention must be a user id.')
  .min(1, 'A mention must be a user id.')
  .max(2_147_483_647, 'A mention must be a user id.');

/**
 * A body: 1–5,000 characters after trimming, storable text (NUL → 422), without control characters
 * but line breaks and tabs, and not only invisible characters (K27).
 */
export const commentBodySchema = text('The comment', 'The comment is required.')
  .overwrite(stripControlsMultiline)
  .trim()
  .refine((body) => !isBlankText(body), { message: 'The comment is required.', abort: true })
  .max(COMMENT_BODY_MAX, `A comment must be ${COMMENT_BODY_MAX.toLocaleString('en-US')} characters or less.`);

/**
 * POST /api/items/{id}/comments, and the payload of a queued comment. The cap counts everyone the
 * comment mentions (K25): the body's `@[id]` tokens and the listed ids together, each once.
 */
export const commentCreateSchema = z
  .strictObject({
    body: commentBodySchema,
    uuid: z.uuid('Must be a UUID.').optional(),
    mentions: z
      .array(mentionId, { error: 'Mentions must be a list of user ids.' })
      .max(MENTIONS_MAX, TOO_MANY_MENTIONS)
      .optional(),
  })
  .refine((c) => commentMentions(c.body, c.mentions ?? []).length <= MENTIONS_MAX, {
    message: TOO_MANY_MENTIONS,
    path: ['mentions'],
  });
export type CommentCreateInput = z.input<typeof commentCreateSchema>;
export type CommentCreate = z.output<typeof commentCreateSchema>;

/** PATCH /api/comments/{id}: the body's tokens are its mentions, under the same cap (K25). */
export const commentPatchSchema = z.strictObject({
  body: commentBodySchema.refine((body) => mentionedInBody(body).length <= MENTIONS_MAX, TOO_MANY_MENTIONS),
});

/** How a mention of user `id` is written into a body. */
export const mentionToken = (id: number): string => `@[${id}]`;

const MENTION_TOKEN = /@\[(\d{1,10})\]/g;

/** The user ids a body mentions, each once, in the order they first appear. */
export function mentionedInBody(body: string): number[] {
  const out: number[] = [];
  for (const match of body.matchAll(MENTION_TOKEN)) {
    const id = Number(match[1]);
    if (id >= 1 && id <= 2_147_483_647 && !out.includes(id)) out.push(id);
  }
  return out;
}

/** Everyone a comment mentions: its body's tokens and the request's `mentions`, each once. */
export function commentMentions(body: string, listed: readonly number[] = []): number[] {
  const out = mentionedInBody(body);
  for (const id of listed) if (!out.includes(id)) out.push(id);
  return out;
}

/**
 * One run of a body as a reader sees it: plain text, a mention shown by the person's name, or a token
 * of someone the comment does not name (a person since gone, or one not yet named on the device):
 * shown as '@unknown', never by its id, which says who it was. `length` is the token's in the body.
 */
export type BodyPart =
  | { kind: 'text'; text: string }
  | { kind: 'mention'; id: number; name: string }
  | { kind: 'unknown'; length: number };

/** How a token of nobody the comment names reads (UNKNOWN_MENTION in the body as text, too). */
export const UNKNOWN_MENTION = '@unknown';

/**
 * A body split into text and mentions, for display. A token of someone the comment does not list is
 * an `unknown` part: its id is not shown, since it would name (or probe for) a person.
 */
export function bodyParts(body: string, mentions: readonly { id: number; name: string }[]): BodyPart[] {
  const names = new Map(mentions.map((m) => [m.id, m.name]));
  const parts: BodyPart[] = [];
  let last = 0;
  const push = (value: string) => {
    if (value === '') return;
    const prev = parts.at(-1);
    if (prev?.kind === 'text') prev.text += value;
    else parts.push({ kind: 'text', text: value });
  };
  for (const match of body.matchAll(MENTION_TOKEN)) {
    const id = Number(match[1]);
    const name = names.get(id);
    const start = match.index ?? 0;
    push(body.slice(last, start));
    if (name === undefined) parts.push({ kind: 'unknown', length: match[0].length });
    else parts.push({ kind: 'mention', id, name });
    last = start + match[0].length;
  }
  push(body.slice(last));
  return parts;
}

/**
 * The body as plain text (previews, the edit box, 'Copy text'): mentions read `@Name`, a token of
 * nobody named reads '@unknown'.
 */
export function bodyText(body: string, mentions: readonly { id: number; name: string }[]): string {
  return bodyParts(body, mentions)
    .map((p) => (p.kind === 'text' ? p.text : p.kind === 'mention' ? `@${p.name}` : UNKNOWN_MENTION))
    .join('');
}

/** Longest excerpt of a comment a feed line shows, in characters before the ellipsis. */
export const COMMENT_EXCERPT_MAX = 80;

/**
 * A comment's first words for a feed line (the campaign's activity): its text as a reader sees it
 * (bodyText: mentions by name), on one line, cut at a word boundary with an ellipsis when longer than
 * `max` characters.
 */
export function commentExcerpt(
  body: string,
  mentions: readonly { id: number; name: string }[],
  max = COMMENT_EXCERPT_MAX,
): string {
  const line = bodyText(body, mentions).replace(/\s+/g, ' ').trim();
  const chars = [...line];
  if (chars.length <= max) return line;
  const cut = chars.slice(0, max).join('');
  const space = cut.lastIndexOf(' ');
  // A first word longer than the whole excerpt is cut inside it rather than showing nothing.
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/, '')}…`;
}

/**
 * Text typed by hand that looks like a mention token (`@[12]`) kept as the characters typed: a word
 * joiner after the `@` (invisible) so it is no token, neither mentioning user 12 on the server nor
 * naming them on screen. Only the picker writes tokens.
 */
export function escapeTypedTokens(text: string): string {
  return text.replace(/@(?=\[\d{1,10}\])/g, '@\u2060');
}

/** Only a comment's author may edit it (§4: 403 for others who see it). */
export function mayEditComment(viewerId: number, authorId: number): boolean {
  return viewerId === authorId;
}

/**
 * Whether the viewer may delete a comment: its author, or the owner of the campaign it lies in (§4).
 * `role` is the viewer's role in the item's campaign (null outside a shared campaign).
 */
export function mayDeleteComment(viewerId: number, authorId: number, role: Role | null): boolean {
  return viewerId === authorId || role === 'owner';
}

/** What the notification rules need to know of a new comment and its item. */
export interface CommentEvent {
  authorId: number;
  creatorId: number;
  assigneeId: number | null;
  /** Authors of the item's earlier comments. */
  commenterIds: readonly number[];
  /** Who the comment mentions (already checked to see the item). */
  mentionIds: readonly number[];
  /** Who muted the item: no `commented` for them; `mentioned` still arrives (§5). */
  mutedIds: readonly number[];
}

/**
 * Who hears of a new comment, and as what (§5 'Notifications'): each person mentioned gets
 * `mentioned`; the item's creator, assignee and earlier commenters get `commented`, unless they muted
 * it or were mentioned (never twice). Never the author.
 */
export function commentRecipients(
  event: CommentEvent,
): { userId: number; kind: 'mentioned' | 'commented' }[] {
  const out = new Map<number, 'mentioned' | 'commented'>();
  const muted = new Set(event.mutedIds);
  for (const id of event.mentionIds) if (id !== event.authorId && !out.has(id)) out.set(id, 'mentioned');
  const followers = [event.creatorId, event.assigneeId, ...event.commenterIds];
  for (const id of followers) {
    if (id === null || id === event.authorId || out.has(id) || muted.has(id)) continue;
    out.set(id, 'commented');
  }
  return [...out].map(([userId, kind]) => ({ userId, kind }));
}
