import { z } from 'zod';
import { attachmentSchema, commentSchema, itemSchema, memberSchema, timeEntrySchema } from './apiSchemas';
import { MEMBER_ROLES } from './membership';
import { WEBHOOK_EVENTS, WEBHOOK_PAYLOAD_MAX_BYTES, type WebhookEventType } from './webhooks';

/**
 * What a webhook delivery's body holds, per event, as zod schemas: the `webhooks` section of the
 * OpenAPI document is generated from them (src/server/openapi/plugin.ts) and tests hold real
 * deliveries to them (src/server/webhooks/webhooks.test.ts). The objects are the API's own shapes.
 *
 * Server-only, like ./apiSchemas.ts, which it builds on: the client never imports this file.
 */

const id = z.number().int();

/**
 * An object of a body that would pass WEBHOOK_PAYLOAD_MAX_BYTES: its long texts shortened, or only
 * its id left, and `truncated: true` (shared/webhooks.ts `payloadBody`). The API has the whole of it.
 */
export const truncatedSchema = z
  .looseObject({ id, truncated: z.literal(true) })
  .describe(
    `Shortened to keep the body under ${WEBHOOK_PAYLOAD_MAX_BYTES / 1024} KB: long texts cut, or only the id left. Read the whole from the API.`,
  )
  .meta({ id: 'WebhookTruncated' });

const orTruncated = <T extends z.ZodType>(schema: T) => z.union([schema, truncatedSchema]);

const envelope = <T extends z.ZodType, D extends z.ZodType>(type: T, data: D) =>
  z.strictObject({
    type,
    timestamp: z.string().meta({ format: 'date-time' }).describe('When the change happened.'),
    actor: z
      .strictObject({ id, name: z.string() })
      .nullable()
      .describe('Who made the change (the webhook’s owner too: every change is delivered).'),
    data,
  });

type EventOf<P extends string> = Extract<(typeof WEBHOOK_EVENTS)[number], `${P}.${string}`>;
const eventsOf = <P extends string>(prefix: P) =>
  WEBHOOK_EVENTS.filter((e): e is EventOf<P> => e.startsWith(`${prefix}.`)) as [EventOf<P>, ...EventOf<P>[]];

export const ITEM_EVENTS = eventsOf('item');
export const COMMENT_EVENTS = eventsOf('comment');
export const MEMBER_EVENTS = eventsOf('member');
export const TIME_ENTRY_EVENTS = eventsOf('time_entry');
export const ATTACHMENT_EVENTS = eventsOf('attachment');

/** item.*: the item as the webhook's owner reads it after the change. */
export const itemEventSchema = envelope(
  z.enum(ITEM_EVENTS),
  z.strictObject({ item: orTruncated(itemSchema) }),
).meta({ id: 'ItemEvent' });

/** comment.*: the comment (for comment.deleted, as it was). */
export const commentEventSchema = envelope(
  z.enum(COMMENT_EVENTS),
  z.strictObject({ comment: orTruncated(commentSchema) }),
).meta({ id: 'CommentEvent' });

/** member.*: the member in the members routes' shape, the campaign, and on a role change the old role. */
export const memberEventSchema = envelope(
  z.enum(MEMBER_EVENTS),
  z.strictObject({
    member: memberSchema.describe(
      'The member after the change; on member.removed, as they were (their role, when they joined).',
    ),
    campaign: z.strictObject({ id, title: z.string() }),
    previous_role: z
      .enum(MEMBER_ROLES)
      .optional()
      .describe('On member.updated only: the role before the change.'),
  }),
).meta({ id: 'MemberEvent' });

/** time_entry.*: the entry (a timer started, or an entry added). */
export const timeEntryEventSchema = envelope(
  z.enum(TIME_ENTRY_EVENTS),
  z.strictObject({ time_entry: orTruncated(timeEntrySchema) }),
).meta({ id: 'TimeEntryEvent' });

/** attachment.*: the file's metadata (never its bytes). */
export const attachmentEventSchema = envelope(
  z.enum(ATTACHMENT_EVENTS),
  z.strictObject({ attachment: orTruncated(attachmentSchema) }),
).meta({ id: 'AttachmentEvent' });

/** webhook.test: the webhook it was sent to. */
export const testEventSchema = envelope(
  z.literal('webhook.test'),
  z.strictObject({ webhook: z.strictObject({ id, url: z.string() }) }),
).meta({ id: 'TestEvent' });

/** The body schema of every event a delivery may carry. */
export function webhookPayloadSchemaOf(type: WebhookEventType): z.ZodType {
  if (type === 'webhook.test') return testEventSchema;
  if (type.startsWith('item.')) return itemEventSchema;
  if (type.startsWith('comment.')) return commentEventSchema;
  if (type.startsWith('member.')) return memberEventSchema;
  if (type.startsWith('attachment.')) return attachmentEventSchema;
  return timeEntryEventSchema;
}

/** When each event is sent, in a sentence (the document's summary of it). */
export const WEBHOOK_EVENT_SUMMARIES: Readonly<Record<WebhookEventType, string>> = {
  'item.created': 'An item was created',
  'item.updated': 'An item was edited, assigned or reopened',
  'item.completed': 'An item was completed',
  'item.deleted': 'An item was moved to the trash',
  'item.restored': 'An item was restored from the trash',
  'comment.created': 'A comment was written',
  'comment.updated': 'A comment was edited',
  'comment.deleted': 'A comment was deleted',
  'member.added': 'Someone joined a campaign (added, or through an invite)',
  'member.updated': 'A member’s role changed',
  'member.removed': 'A member was removed from a campaign, or left it',
  'time_entry.created': 'A timer started, or a time entry was added',
  'attachment.created': 'A file was added to an item',
  'attachment.deleted': 'A file was deleted from an item',
  'webhook.test': 'A test event, sent by hand',
};
