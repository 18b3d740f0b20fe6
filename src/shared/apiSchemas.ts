import { z } from 'zod';
import { viewAnswerSchema } from './filter/views';
import { ACTIVITY_ACTIONS, ITEM_STATUSES, ITEM_TYPES } from './item';
import { type FieldSchemaKey, ITEM_FIELD_NAMES, ITEM_FIELDS } from './itemFields';
import { MEMBER_ROLES, ROLES } from './membership';
import { NOTIFICATION_KINDS } from './notifications';
import { templateAnswerSchema } from './templates';

/**
 * What the API answers, as zod schemas: the response half of the contract whose request half is
 * ./schemas.ts (and the other request schemas beside their rules). The server declares them on its
 * routes, the OpenAPI document (`GET /api/openapi.json`) is generated from them, and in tests every
 * JSON answer is checked against the one its route declares (src/server/openapi/responseCheck.ts),
 * so a schema here that no longer says what the server sends fails the test that sent it.
 *
 * Objects are strict: the document says `additionalProperties: false`, and the check in tests fails
 * an answer with a field this file does not name, so a field added to an answer is added here too.
 * (Error answers stay open: some carry more, such as a 412's `item`.) Schemas with an `id` become
 * named components of the document.
 *
 * Server-only: the client never imports this file, so none of it reaches the app's bundles.
 */

const id = z.number().int();
const object = z.strictObject;
const instant = z.string().meta({ format: 'date-time' });

/** Every error answer: a human `message`, and on some answers more (a 412's `item`, a 404's `departure`). */
export const errorSchema = z
  .looseObject({ message: z.string().describe('What went wrong, in words a person can read.') })
  .meta({ id: 'Error' });

/** A 422: the message of the first problem, and every problem by field. */
export const validationErrorSchema = z
  .looseObject({
    message: z.string(),
    errors: z
      .record(z.string(), z.array(z.string()))
      .describe('Field → messages (a nested field as `keys.auth`; a problem with the whole body as `body`).'),
  })
  .meta({ id: 'ValidationError' });

export const userSummarySchema = z
  .object({ id, name: z.string(), phone: z.string(), created_at: instant, updated_at: instant })
  .meta({ id: 'User' });

/** A person named without their phone. */
export const personSchema = object({ id, name: z.string() }).meta({ id: 'Person' });

const parentSummarySchema = object({
  id,
  title: z.string(),
  type: z.enum(ITEM_TYPES),
  status: z.enum(ITEM_STATUSES),
  parent_id: id.nullable(),
});

/**
 * A declared field's value as the API sends it, by its schema key (./itemFields.ts). A new schema
 * key must say here how it reads back, or this does not compile.
 */
const FIELD_JSON = {
  title: z.string(),
  description: z.string().nullable(),
  status: z.enum(ITEM_STATUSES),
  ref: id.nullable(),
  date: z.string().meta({ format: 'date' }).nullable(),
  instant: instant.nullable(),
  recurrence: z.string().describe('An RFC 5545 RRULE.').nullable(),
  seriesUuid: z.string().nullable(),
  timeZone: z.string().describe('An IANA time zone name.'),
  priority: z.number().int().min(1).max(4),
  labels: z.array(z.string()),
  sortKey: z.string().nullable(),
  shortText: z.string().nullable(),
  minutes: z.number().int().min(0).nullable(),
} as const satisfies Record<FieldSchemaKey, z.ZodType>;

/** The declared fields as the API sends them: one entry per field of ITEM_FIELDS, optional where rows from before it lack it. */
function declaredFieldsShape(): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const field of ITEM_FIELD_NAMES) {
    const { schema, optional } = ITEM_FIELDS[field];
    shape[field] = optional ? FIELD_JSON[schema].optional() : FIELD_JSON[schema];
  }
  return shape;
}

const itemShape = {
  ...declaredFieldsShape(),
  id,
  uuid: z.string().nullable(),
  type: z.enum(ITEM_TYPES),
  user_id: id,
  created_at: instant,
  updated_at: instant,
  completed_at: instant.nullable(),
  deleted_at: instant.nullable(),
  version: z.number().int().describe('Sent again as `If-Match: "<version>"` to refuse a stale write (412).'),
  created_by: userSummarySchema,
  user: userSummarySchema,
  assignedUser: userSummarySchema.nullable(),
  parent: parentSummarySchema.nullable(),
  children_count: z.number().int(),
  completed_count: z.number().int(),
  my_role: z.enum(ROLES).nullable().optional(),
  members_count: z.number().int().optional(),
  comments_count: z.number().int().optional(),
  spent_minutes: z
    .number()
    .int()
    .optional()
    .describe('Finished time-entry minutes on the item and its descendants.'),
  estimate_total_minutes: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe(
      'On a task or a campaign: its own estimate, else the sum of its children’s (a task’s the same way); null when none has one.',
    ),
};

/** An item as every item answer carries it (ARCHITECTURE §4 'Items'), with `ETag: "<version>"`. */
export const itemSchema = object(itemShape).meta({ id: 'Item' });

/** A search result: an item, and the comment that found it when only a comment did. */
export const searchHitSchema = itemSchema
  .extend({
    matched_comment: object({ id, excerpt: z.string().describe('The words around the match, on one line.') })
      .optional()
      .describe('Set when the item was found by a comment only: the newest live comment holding the words.'),
  })
  .meta({ id: 'SearchHit' });

/** One page of a list: the envelope every paginated answer carries. */
export function paginatedSchema<T extends z.ZodType>(entry: T) {
  return object({
    data: z.array(entry),
    current_page: z.number().int(),
    last_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
  });
}

/** 412: the item changed since the version the write was based on; the server's copy is attached. */
export const staleSchema = z.looseObject({ message: z.string(), item: itemSchema }).meta({ id: 'Stale' });

export const itemPageSchema = paginatedSchema(itemSchema);
export const itemBatchAnswerSchema = object({ items: z.array(itemSchema) });
export const revertAnswerSchema = itemSchema.extend({
  skipped: z.array(z.string()).optional().describe('Fields changed since the entry, left alone.'),
});
export const labelsAnswerSchema = object({
  labels: z.array(object({ name: z.string(), count: z.number().int() })),
});

export const trashEntrySchema = itemSchema.extend({
  deleted_at: instant,
  deleted_by: personSchema.nullable(),
});
export const trashPageSchema = paginatedSchema(trashEntrySchema);

/** GET /api/export: Outpost JSON, every live item the caller sees (./importExport.ts). */
export const exportDocumentSchema = object({
  format: z.literal('outpost'),
  version: z.literal(1),
  exported_at: instant,
  user: personSchema.nullable(),
  items: z.array(
    z.looseObject({
      id,
      uuid: z.string().nullable(),
      type: z.enum(ITEM_TYPES),
      title: z.string(),
      parent_uuid: z.string().nullable(),
      assigned_to: z.string().nullable().describe('The assignee by name.'),
      created_at: instant,
      updated_at: instant,
      completed_at: instant.nullable(),
      comments: z.array(
        object({ uuid: z.string(), author: z.string(), body: z.string(), created_at: instant }),
      ),
      time_entries: z
        .array(
          object({
            uuid: z.string(),
            author: z.string(),
            started_at: instant,
            ended_at: instant.nullable(),
            note: z.string(),
          }),
        )
        .describe('The item’s live time entries, oldest first; an import restores its person’s.'),
      attachments: z
        .array(
          object({
            uuid: z.string(),
            name: z.string(),
            type: z.string(),
            size: z.number().int().nonnegative(),
            sha256: z.string().nullable(),
            path: z
              .string()
              .nullable()
              .describe(
                'Where the bytes are inside a zip export (`files/<uuid>-<name>`); null in this JSON, which carries no bytes.',
              ),
          }),
        )
        .describe('The item’s live files (metadata, never bytes), oldest first.'),
      members: z
        .array(object({ name: z.string(), phone: z.string().nullable(), role: z.enum(ROLES) }))
        .optional(),
    }),
  ),
});

/** The personal access token an entry's change was made through (activity and history alike). */
const viaToken = z
  .string()
  .nullable()
  .optional()
  .describe('The name of the personal access token the change was made through; null when made in the app.');

export const activityEntrySchema = object({
  id,
  user: personSchema,
  action: z.enum(ACTIVITY_ACTIONS),
  item: object({ id, type: z.enum(ITEM_TYPES), title: z.string() }),
  description: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  created_at: instant,
  comment: z
    .string()
    .nullable()
    .optional()
    .describe(
      'A `commented` entry’s comment, its first words; null once the comment is deleted or erased, or its item is out of the reader’s sight.',
    ),
  via: viaToken,
});
export const activityPageSchema = paginatedSchema(activityEntrySchema);

export const commentSchema = z
  .object({
    id,
    uuid: z.string(),
    item_id: id,
    user: personSchema,
    body: z.string().describe('Plain text; a mention is written `@[user id]`.'),
    mentions: z.array(personSchema),
    created_at: instant,
    updated_at: instant,
    edited: z.boolean(),
  })
  .meta({ id: 'Comment' });
export const commentPageSchema = paginatedSchema(commentSchema);

export const timeEntrySchema = z
  .object({
    id,
    uuid: z.string(),
    item_id: id,
    user: personSchema,
    started_at: instant,
    ended_at: instant.nullable().describe('Null while the timer runs.'),
    minutes: z.number().int().describe('Whole minutes, up to now while it runs.'),
    note: z.string(),
    created_at: instant,
    updated_at: instant,
  })
  .meta({ id: 'TimeEntry' });
export const timeEntryPageSchema = paginatedSchema(timeEntrySchema);
const timeEntryTombstoneSchema = object({ id, uuid: z.string(), item_id: id, deleted_at: instant });

/** A file on an item (ARCHITECTURE §4 'Files on items'). */
export const attachmentSchema = z
  .object({
    id,
    uuid: z.string(),
    item_id: id,
    name: z.string(),
    type: z.string().describe('The type sniffed from the bytes, never the uploader’s word.'),
    size: z.number().int().describe('Bytes.'),
    sha256: z.string().describe('Hex SHA-256 of the bytes; the content’s ETag.'),
    width: z.number().int().optional(),
    height: z.number().int().optional(),
    user: personSchema,
    created_at: instant,
    url: z.string().describe('Where the bytes are read.'),
    thumbnail_url: z.string().optional().describe('A thumbnail of at most 400 px, for images.'),
  })
  .meta({ id: 'Attachment' });
export const attachmentPageSchema = paginatedSchema(attachmentSchema);
const attachmentTombstoneSchema = object({ id, uuid: z.string(), item_id: id, deleted_at: instant });

const tombstoneSchema = object({ id, uuid: z.string().nullable(), deleted_at: instant });
const commentTombstoneSchema = object({ id, uuid: z.string(), item_id: id, deleted_at: instant });

/** GET /api/sync: the changes after a cursor (SYNC.md L). */
/** A template or saved view the caller no longer has: deleted, or no longer shared with them. */
const listTombstoneSchema = object({ id, uuid: z.string(), deleted_at: instant });

export const syncPageSchema = object({
  items: z.array(z.union([itemSchema, tombstoneSchema])).describe('Items, and tombstones for what is gone.'),
  comments: z
    .array(z.union([commentSchema.extend({ item_uuid: z.string().nullable() }), commentTombstoneSchema]))
    .optional(),
  time_entries: z
    .array(z.union([timeEntrySchema.extend({ item_uuid: z.string().nullable() }), timeEntryTombstoneSchema]))
    .optional(),
  attachments: z
    .array(
      z.union([attachmentSchema.extend({ item_uuid: z.string().nullable() }), attachmentTombstoneSchema]),
    )
    .optional(),
  templates: z
    .array(z.union([templateAnswerSchema, listTombstoneSchema]))
    .optional()
    .describe(
      'The templates the caller sees that changed in the page’s range, and tombstones for those gone.',
    ),
  views: z
    .array(z.union([viewAnswerSchema, listTombstoneSchema]))
    .optional()
    .describe(
      'The saved views the caller sees that changed in the page’s range, and tombstones for those gone.',
    ),
  cursor: z.string().describe('Opaque: send it back as `cursor` for the next page.'),
  has_more: z.boolean(),
  remaining: z
    .number()
    .int()
    .optional()
    .describe('With `count=1`: how many changes are left after this page.'),
});

export const historyEntrySchema = object({
  id,
  user: personSchema,
  at: instant,
  action: z.string(),
  changes: z.record(z.string(), object({ from: z.unknown(), to: z.unknown() })),
  summary: z
    .string()
    .optional()
    .describe('A membership entry’s words after the actor’s name (‘made Bob an editor’).'),
  via: viaToken,
});
export const historyPageSchema = paginatedSchema(historyEntrySchema);

export const peopleAnswerSchema = object({ people: z.array(personSchema) });
export const muteAnswerSchema = object({ muted: z.boolean() });

const mutualSchema = object({ id, name: z.string(), phone: z.string() });
export const mutualsAnswerSchema = object({
  mutuals: z.array(mutualSchema),
  samples: z.array(mutualSchema).describe('The sample people the server seeds, offered as assignees.'),
});
export const contactsSyncAnswerSchema = object({ count: z.number().int() });

/** A campaign's member, as the members routes answer it and member webhook events carry it. */
export const memberSchema = object({
  user: object({ id, name: z.string(), phone: z.string() }),
  role: z.enum(ROLES),
  added_at: instant,
}).meta({ id: 'Member' });
export const membersAnswerSchema = object({
  members: z.array(memberSchema),
  departed: z.array(id).optional().describe('People removed from the campaign or who left it.'),
});
export const memberAnswerSchema = object({ member: memberSchema });

const inviteSchema = object({
  id,
  role: z.enum(MEMBER_ROLES),
  expires_at: instant,
  max_uses: z.number().int(),
  uses: z.number().int(),
  created_at: instant,
  revoked_at: instant.nullable(),
});
export const inviteCreatedSchema = inviteSchema.extend({
  token: z.string().describe('Shown in this answer only.'),
  url: z.string(),
});
export const invitePageSchema = paginatedSchema(inviteSchema);
export const invitePreviewSchema = object({
  campaign: object({ id, title: z.string() }),
  role: z.enum(MEMBER_ROLES),
  inviter: personSchema,
});
export const inviteAcceptedSchema = object({ campaign_id: id, role: z.enum(ROLES) });

export const notificationSchema = object({
  id,
  kind: z.enum(NOTIFICATION_KINDS),
  text: z.string(),
  item: object({ id, type: z.enum(ITEM_TYPES), title: z.string() }).nullable(),
  actor: personSchema.nullable(),
  created_at: instant,
  read_at: instant.nullable(),
  comment_id: id.nullable().optional(),
  item_count: z.number().int().optional(),
});
export const notificationPageSchema = paginatedSchema(notificationSchema).extend({
  unread: z.number().int(),
});
export const unreadAnswerSchema = object({ unread: z.number().int() });
export const pushKeyAnswerSchema = object({ publicKey: z.string().describe('The VAPID public key.') });
export const pushSubscribedSchema = object({ endpoint: z.string() });

export const userAnswerSchema = object({ user: userSummarySchema });
export const authModeSchema = object({ mode: z.enum(['demo', 'otp']) });
/** GET /api/auth/methods: the ways this server signs people in besides the phone (null: not configured). */
export const authMethodsSchema = object({
  oidc: object({ name: z.string().describe('The button says Sign in with {name}.') }).nullable(),
});
export type AuthMethods = z.infer<typeof authMethodsSchema>;
export const codeAnswerSchema = object({
  sent: z.boolean(),
  mode: z.enum(['demo', 'otp']),
  message: z.string().optional(),
  expires_in: z.number().int().optional().describe('Seconds the code lives.'),
});
export const calendarLinkStateSchema = object({
  active: z.boolean(),
  created_at: z.string().nullable().describe('When the link in use was made; null when there is none.'),
});
export const calendarTokenSchema = object({
  url: z.string().describe('The secret feed URL (`/cal/{token}.ics`), in this answer only.'),
  active: z.literal(true),
  created_at: z.string(),
});
export const healthSchema = object({ ok: z.literal(true) });
export const readySchema = object({ ready: z.literal(true) });
export const notReadySchema = object({ ready: z.literal(false), message: z.string() });
