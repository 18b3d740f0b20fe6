import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import type { SignInMethod } from '../../shared/devices';

/** PostgreSQL's bytea as a Buffer (drizzle has no built-in column for it). */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
};

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** E.164; null for a person who came by single sign-on and has added no phone. */
    phone: text('phone'),
    ...timestamps,
  },
  (t) => [uniqueIndex('users_phone_key').on(t.phone)],
);

/** Server-side sessions; the cookie carries a random token and only its SHA-256 is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    user_id: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    xsrf_token: text('xsrf_token').notNull(),
    created_at: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    last_seen_at: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expires_at: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    // The id a device is named by in Preferences (its key, the token's hash, never leaves the server).
    public_id: uuid('public_id').notNull().defaultRandom(),
    user_agent: text('user_agent'),
    via: text('via').$type<SignInMethod>().notNull().default('phone'),
  },
  (t) => [
    index('sessions_user_idx').on(t.user_id),
    index('sessions_expires_idx').on(t.expires_at),
    uniqueIndex('sessions_public_id_idx').on(t.public_id),
  ],
);

export const items = pgTable(
  'items',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid'),
    title: text('title').notNull(),
    description: text('description'),
    type: text('type', { enum: ['campaign', 'task', 'todo'] }).notNull(),
    status: text('status', { enum: ['pending', 'in_progress', 'completed'] })
      .notNull()
      .default('pending'),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
    assigned_to: integer('assigned_to').references(() => users.id),
    parent_id: integer('parent_id'),
    due_date: date('due_date', { mode: 'string' }),
    end_date: date('end_date', { mode: 'string' }),
    // When to remind the creator and assignee (an instant); firing it is the reminders worker's job.
    remind_at: timestamp('remind_at', { withTimezone: true, mode: 'date' }),
    // The RRULE a task or todo repeats by, and its series' first uuid (null on that first one):
    // the next occurrence's uuid derives from both, so every writer creates the same row (§5).
    recurrence: varchar('recurrence', { length: 255 }),
    series_uuid: uuid('series_uuid'),
    // The IANA zone whose wall clock the next occurrence's reminder keeps (§5, SYNC.md N5).
    time_zone: varchar('time_zone', { length: 64 }).notNull().default('UTC'),
    // Planning fields (§4, migration 0011): 1–4 (4 none); up to 10 labels; the place among siblings,
    // a fractional index compared by code unit (COLLATE "C" in the migration). Its default serves
    // raw inserts only (seeds, benches): the API always gives a key after the last sibling's.
    priority: smallint('priority').notNull().default(4),
    labels: text('labels').array().notNull().default(sql`'{}'`),
    sort_key: text('sort_key').notNull().default('a0'),
    // Live comments on the item (migration 0015): kept by the comment's create and delete, never a client.
    comments_count: integer('comments_count').notNull().default(0),
    // Finished minutes on the item and its descendants (migration 0030): kept by time-entry writes.
    spent_minutes: integer('spent_minutes').notNull().default(0),
    // When the work starts (never after due_date, SYNC.md D10) and how long it should take in minutes
    // (0–100,000): migration 0029, §4 'Start dates, estimates and time'.
    start_date: date('start_date', { mode: 'string' }),
    estimate_minutes: integer('estimate_minutes'),
    ...timestamps,
    completed_at: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
    deleted_at: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    // Who deleted it, for the trash. The rows one delete took along share its deleted_at (one
    // transaction, one now()), which is how a restore finds them again.
    deleted_by: integer('deleted_by'),
    version: integer('version').notNull().default(1),
    // The writing transaction's id: the sync cursor orders by it (see sync/cursor.ts).
    change_xid: bigint('change_xid', { mode: 'bigint' })
      .notNull()
      .default(sql`(pg_current_xact_id()::text::bigint)`),
  },
  (t) => [
    uniqueIndex('items_uuid_key').on(t.user_id, t.uuid),
    index('items_user_idx').on(t.user_id, t.created_at),
    index('items_assigned_idx').on(t.assigned_to),
    index('items_parent_idx').on(t.parent_id),
    index('items_series_idx').on(t.series_uuid),
    index('items_sibling_order_idx').on(t.parent_id, t.sort_key),
    index('items_top_order_idx').on(t.user_id, t.sort_key).where(sql`${t.parent_id} IS NULL`),
    index('items_type_status_idx').on(t.type, t.status),
    index('items_created_idx').on(t.created_at, t.id),
    index('items_change_idx').on(t.change_xid, t.id),
    index('items_deleted_idx').on(t.deleted_at).where(sql`${t.deleted_at} IS NOT NULL`),
    index('items_title_trgm_idx').using('gin', sql`${t.title} gin_trgm_ops`),
    index('items_description_trgm_idx').using('gin', sql`${t.description} gin_trgm_ops`),
  ],
);

export const activities = pgTable(
  'activities',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
    item_id: integer('item_id').notNull(),
    // The top-level item at the time of the change, so a campaign's feed is one index scan.
    root_id: integer('root_id').notNull(),
    action: text('action').notNull(),
    // The item as it was when the entry was written: the feed never shows a later title, which the
    // reader may no longer be allowed to see (the item may have moved out of the campaign).
    item_type: text('item_type', { enum: ['campaign', 'task', 'todo'] }),
    item_title: text('item_title'),
    description: text('description').notNull(),
    metadata: jsonb('metadata').notNull().default({}),
    created_at: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    // The personal access token's name when a token made the change (0034): filled by its default
    // from the write's transaction-local setting (http/idempotency.ts runWrite), null otherwise.
    via_token: text('via_token').default(sql`NULLIF(current_setting('outpost.via_token', true), '')`),
  },
  (t) => [index('activities_root_idx').on(t.root_id, t.id), index('activities_item_idx').on(t.item_id, t.id)],
);

export const contacts = pgTable(
  'contacts',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    contact_phone: text('contact_phone').notNull(),
    created_at: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('contacts_user_phone_key').on(t.user_id, t.contact_phone),
    index('contacts_phone_idx').on(t.contact_phone),
  ],
);

/** One row per (user, Idempotency-Key): the request's fingerprint and the answer it got. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    status: smallint('status').notNull(),
    body: jsonb('body'),
    created_at: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.key] }), index('idempotency_created_idx').on(t.created_at)],
);

/** One-time sign-in codes (AUTH_MODE=otp): hashed, single use, with a per-phone lockout. */
export const loginCodes = pgTable('login_codes', {
  phone: text('phone').primaryKey(),
  code_hash: text('code_hash'),
  expires_at: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
  attempts: integer('attempts').notNull().default(0),
  locked_until: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
  updated_at: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * A user stopped seeing an item (unassigned, or moved out from under what they see). Sync sends it
 * to them as a tombstone, ordered with item changes by the same transaction id.
 */
export const itemRevocations = pgTable(
  'item_revocations',
  {
    user_id: integer('user_id').notNull(),
    item_id: integer('item_id').notNull(),
    change_xid: bigint('change_xid', { mode: 'bigint' })
      .notNull()
      .default(sql`(pg_current_xact_id()::text::bigint)`),
    revoked_at: timestamp('revoked_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.user_id, t.item_id] }),
    index('item_revocations_change_idx').on(t.user_id, t.change_xid, t.item_id),
  ],
);

/**
 * Fixed-window counters shared by every instance (the per-phone code-request limit): one row per
 * key, counted with an atomic upsert so parallel requests on PostgreSQL cannot slip past it.
 */
export const rateBuckets = pgTable(
  'rate_buckets',
  {
    key: text('key').primaryKey(),
    window_started_at: timestamp('window_started_at', { withTimezone: true, mode: 'date' }).notNull(),
    hits: integer('hits').notNull(),
  },
  (t) => [index('rate_buckets_window_idx').on(t.window_started_at)],
);

/** Secrets generated once and shared by every instance (the anonymous anti-forgery key). */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  created_at: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * What a user is told about changes others made to their items, and reminders (`kind` `due`).
 * The item's type and title are kept as they were when written: a reader who has since lost the item
 * learns nothing newer about it. `pushed_at` null marks the Web Push outbox.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
    actor_id: integer('actor_id').references(() => users.id),
    kind: text('kind').notNull(),
    item_id: integer('item_id'),
    item_type: text('item_type', { enum: ['campaign', 'task', 'todo'] }),
    item_title: text('item_title'),
    text: text('text').notNull(),
    ...timestamps,
    read_at: timestamp('read_at', { withTimezone: true, mode: 'date' }),
    pushed_at: timestamp('pushed_at', { withTimezone: true, mode: 'date' }),
    // The comment a `mentioned` or `commented` entry is about.
    comment_id: integer('comment_id'),
    // How many items an `assigned` entry stands for: one person's run of assignments folds (SYNC.md P8).
    item_count: integer('item_count').notNull().default(1),
  },
  (t) => [
    index('notifications_user_idx').on(t.user_id, t.created_at, t.id),
    index('notifications_unread_idx').on(t.user_id).where(sql`${t.read_at} IS NULL`),
    index('notifications_unpushed_idx').on(t.created_at).where(sql`${t.pushed_at} IS NULL`),
  ],
);

/** A browser's Web Push subscription (RFC 8030) for one user. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    created_at: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_key').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.user_id),
  ],
);

/** Each (item, remind_at) that fired or was cancelled: the key makes a reminder fire once at most. */
export const reminderClaims = pgTable(
  'reminder_claims',
  {
    item_id: integer('item_id').notNull(),
    remind_at: timestamp('remind_at', { withTimezone: true, mode: 'date' }).notNull(),
    outcome: text('outcome', { enum: ['sent', 'cancelled'] }).notNull(),
    claimed_at: timestamp('claimed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'reminder_claims_pk', columns: [t.item_id, t.remind_at] })],
);

/** Calendar feed (ARCHITECTURE §4): one secret URL a person, kept as the SHA-256 of its token. */
export const calendarTokens = pgTable(
  'calendar_tokens',
  {
    user_id: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull(),
    /** When the link in use was made: Preferences says 'active since' (F9); the secret is never kept. */
    created_at: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('calendar_tokens_hash_key').on(t.token_hash)],
);

/**
 * Members of shared campaigns (ARCHITECTURE §4, migration 0014): editors and viewers. The owner is the
 * campaign's creator (its items.user_id) and has no row. `change_xid` is when the grant (or the last
 * role change) was written: the member's next pull sends the campaign's whole tree from it (SYNC.md M2).
 */
export const campaignMembers = pgTable(
  'campaign_members',
  {
    campaign_id: integer('campaign_id').notNull(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['editor', 'viewer'] }).notNull(),
    added_by: integer('added_by'),
    added_at: timestamp('added_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    change_xid: bigint('change_xid', { mode: 'bigint' })
      .notNull()
      .default(sql`(pg_current_xact_id()::text::bigint)`),
  },
  (t) => [
    primaryKey({ name: 'campaign_members_pk', columns: [t.campaign_id, t.user_id] }),
    index('campaign_members_user_idx').on(t.user_id, t.campaign_id),
    index('campaign_members_grant_idx').on(t.user_id, t.change_xid, t.campaign_id),
  ],
);

/** Who was removed from or left a campaign (and was not added back): its tree is hidden from them. */
export const campaignDepartures = pgTable(
  'campaign_departures',
  {
    user_id: integer('user_id').notNull(),
    campaign_id: integer('campaign_id').notNull(),
    departed_at: timestamp('departed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Removed by the owner (not left): kept out of the campaign's invite links until added again (M11). */
    barred: boolean('barred').notNull().default(false),
  },
  (t) => [primaryKey({ name: 'campaign_departures_pk', columns: [t.user_id, t.campaign_id] })],
);

/** Invite links to a campaign: the SHA-256 of the token, the role it gives, its expiry and uses. */
export const campaignInvites = pgTable(
  'campaign_invites',
  {
    id: serial('id').primaryKey(),
    token_hash: text('token_hash').notNull(),
    campaign_id: integer('campaign_id').notNull(),
    role: text('role', { enum: ['editor', 'viewer'] }).notNull(),
    inviter_id: integer('inviter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    created_at: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expires_at: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    max_uses: integer('max_uses').notNull(),
    uses: integer('uses').notNull().default(0),
    revoked_at: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('campaign_invites_token_key').on(t.token_hash),
    index('campaign_invites_campaign_idx').on(t.campaign_id, t.created_at),
  ],
);

/** A comment on an item (ARCHITECTURE §4 'Comments'): named by its author's uuid, mentions by user id. */
export const comments = pgTable(
  'comments',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull(),
    item_id: integer('item_id')
      .notNull()
      .references(() => items.id),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
    body: text('body').notNull(),
    mentions: integer('mentions').array().notNull().default(sql`'{}'`),
    ...timestamps,
    edited_at: timestamp('edited_at', { withTimezone: true, mode: 'date' }),
    deleted_at: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    change_xid: bigint('change_xid', { mode: 'bigint' })
      .notNull()
      .default(sql`(pg_current_xact_id()::text::bigint)`),
  },
  (t) => [
    uniqueIndex('comments_uuid_key').on(t.user_id, t.uuid),
    index('comments_item_idx').on(t.item_id, t.id),
    index('comments_change_idx').on(t.change_xid, t.id),
    // Search by words in live comments (migration 0038).
    index('comments_body_trgm_idx')
      .using('gin', sql`${t.body} gin_trgm_ops`)
      .where(sql`${t.deleted_at} IS NULL`),
  ],
);

/** A time entry on an item (ARCHITECTURE §4): running while `ended_at` is null, one per person. */
export const time_entries = pgTable(
  'time_entries',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull(),
    item_id: integer('item_id')
      .notNull()
      .references(() => items.id),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
    started_at: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
    ended_at: timestamp('ended_at', { withTimezone: true, mode: 'date' }),
    note: text('note').notNull().default(''),
    ...timestamps,
    deleted_at: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    change_xid: bigint('change_xid', { mode: 'bigint' })
      .notNull()
      .default(sql`(pg_current_xact_id()::text::bigint)`),
  },
  (t) => [
    uniqueIndex('time_entries_uuid_key').on(t.user_id, t.uuid),
    index('time_entries_item_idx').on(t.item_id, t.started_at),
    index('time_entries_user_idx').on(t.user_id, t.started_at),
    index('time_entries_change_idx').on(t.change_xid, t.id),
  ],
);

/** A file on an item (ARCHITECTURE §4 'Files on items', migration 0035): the bytes live in the file store by sha256. */
export const attachments = pgTable(
  'attachments',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull(),
    item_id: integer('item_id')
      .notNull()
      .references(() => items.id),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    type: text('type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    width: integer('width'),
    height: integer('height'),
    has_thumbnail: boolean('has_thumbnail').notNull().default(false),
    ...timestamps,
    deleted_at: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    change_xid: bigint('change_xid', { mode: 'bigint' })
      .notNull()
      .default(sql`(pg_current_xact_id()::text::bigint)`),
  },
  (t) => [
    uniqueIndex('attachments_uuid_key').on(t.user_id, t.uuid),
    index('attachments_item_idx').on(t.item_id, t.id),
    index('attachments_sha256_idx').on(t.sha256),
    index('attachments_change_idx').on(t.change_xid, t.id),
  ],
);

/** Who muted which item: no `commented` or `updated` notifications for it (§5). */
export const itemMutes = pgTable(
  'item_mutes',
  {
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    item_id: integer('item_id')
      .notNull()
      .references(() => items.id),
    created_at: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.item_id] }), index('item_mutes_item_idx').on(t.item_id)],
);

/**
 * Personal access tokens (ARCHITECTURE §4, migration 0025): a token's SHA-256, its scopes and expiry.
 * `revoked_at` set is a revoked token; the row stays until the sweeper purges it.
 */
export const personalAccessTokens = pgTable(
  'personal_access_tokens',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scopes: text('scopes').array().notNull(),
    token_hash: text('token_hash').notNull(),
    created_at: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expires_at: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    last_used_at: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    revoked_at: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('personal_access_tokens_hash_key').on(t.token_hash),
    index('personal_access_tokens_user_idx').on(t.user_id, t.created_at),
  ],
);

/**
 * Webhooks (drizzle/0026_webhooks.sql). The secret is kept readable because deliveries are signed
 * with it; it never appears in an answer but the create and rotate ones, nor in a log.
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    campaign_id: integer('campaign_id').references(() => items.id, { onDelete: 'cascade' }),
    enabled: boolean('enabled').notNull().default(true),
    secret: text('secret').notNull(),
    previous_secret: text('previous_secret'),
    rotated_at: timestamp('rotated_at', { withTimezone: true, mode: 'date' }),
    disabled_reason: text('disabled_reason'),
    created_at: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  // drizzle/0032: by owner and campaign, for a write's look-up of who hears it (webhooks/hearing.ts).
  (t) => [index('webhooks_owner_campaign_idx').on(t.user_id, t.campaign_id)],
);

/** The webhook outbox: one row per event and webhook, written in the change's transaction. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    webhook_id: integer('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    event_type: text('event_type').notNull(),
    webhook_message_id: text('webhook_message_id').notNull(),
    payload: text('payload').notNull(),
    item_id: integer('item_id'),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    last_status_code: integer('last_status_code'),
    last_error: text('last_error'),
    next_attempt_at: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow(),
    claimed_until: timestamp('claimed_until', { withTimezone: true, mode: 'date' }),
    duration_ms: integer('duration_ms'),
    created_at: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('webhook_deliveries_webhook_idx').on(t.webhook_id, t.id)],
);

/** A person's passkeys (WebAuthn credentials): found by credential id at sign-in. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credential_id: text('credential_id').notNull(),
    public_key: bytea('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array().notNull().default(sql`'{}'`),
    name: text('name').notNull(),
    created_at: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    last_used_at: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('passkeys_credential_idx').on(t.credential_id),
    index('passkeys_user_idx').on(t.user_id),
  ],
);

/** Challenges handed out for passkey registration and sign-in: single use, 5 minutes. */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challenge: text('challenge').primaryKey(),
    user_id: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<'register' | 'login'>().notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('webauthn_challenges_expires_idx').on(t.expires_at)],
);

/** A person's single sign-on identity: found by the provider's (issuer, sub) at sign-in. */
export const oidcIdentities = pgTable(
  'oidc_identities',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    email: text('email'),
    created_at: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    last_used_at: timestamp('last_used_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('oidc_identities_subject_idx').on(t.issuer, t.subject),
    index('oidc_identities_user_idx').on(t.user_id),
  ],
);

/** Single sign-ons under way: the state's PKCE verifier, nonce and return_to; single use, 10 minutes. */
export const oidcLogins = pgTable(
  'oidc_logins',
  {
    state: text('state').primaryKey(),
    browser_hash: text('browser_hash').notNull(),
    code_verifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    return_to: text('return_to').notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('oidc_logins_expires_idx').on(t.expires_at)],
);
