import { randomUUID } from 'node:crypto';
import type { ActivityAction } from '../../shared/item';
import type { ItemChildName } from '../../shared/itemChildren';
import { payloadBody, subscribes, type WebhookEvent, type WebhookEventType } from '../../shared/webhooks';
import { type Executor, rows, sql } from '../db/client';
import type { WriteEffect } from '../http/idempotency';
import type { ItemChildServers } from '../http/itemChildren';
import { iso } from '../http/serialize';
import { findItem, phoneFor, seersAmong } from '../items/queries';
import { hooksHearing } from './hearing';
import { webhookSignal } from './signal';

/**
 * The webhook events of one write, noted as the write goes (beside its activity entries) and turned
 * into outbox rows once, at its end, still inside its transaction (`writeWebhookEvents`): so an
 * event's data is the item as the write left it, and a delivery exists exactly when its change
 * committed.
 */
export type NotedEvent =
  | { kind: 'item'; type: WebhookEvent; actor: Actor; itemId: number; rootId: number; at: Date }
  | {
      kind: 'child';
      /** Which child kind (src/shared/itemChildren.ts); its registered part gives the event's data. */
      child: ItemChildName;
      type: WebhookEvent;
      actor: Actor;
      itemId: number;
      childId: number;
      at: Date;
    }
  | {
      kind: 'member';
      type: WebhookEvent;
      actor: Actor;
      campaign: { id: number; title: string };
      /**
       * Who, and their role after the change (for a removal, the role they had). `added_at` is
       * needed for a removal only: their membership row is gone when the payload is written.
       */
      member: { id: number; name: string; role: string; previous_role?: string; added_at?: Date | string };
      at: Date;
    };

interface Actor {
  id: number;
  name: string;
}

type Noted = NotedEvent extends infer E ? (E extends NotedEvent ? Omit<E, 'at'> : never) : never;

const noted = new WeakMap<object, NotedEvent[]>();

/** Inside a write's transaction: remembers an event for the webhooks (written by writeWebhookEvents). */
export function noteWebhookEvent(tx: object, event: Noted): void {
  const list = noted.get(tx) ?? [];
  // One write's several entries for the same change (an edit that also assigns) are one event.
  const key = eventKey(event);
  if (list.some((e) => eventKey(e) === key)) return;
  list.push({ ...event, at: new Date() } as NotedEvent);
  noted.set(tx, list);
}

const eventKey = (e: Noted | NotedEvent) =>
  `${e.type} ${e.kind === 'member' ? `${e.campaign.id}/${e.member.id}` : e.kind === 'child' ? `${e.child}/${e.childId}` : e.itemId}`;

/** The webhook event an item's activity entry is, if any (assignments and reopenings are updates). */
export function itemEventOf(action: ActivityAction): WebhookEvent | null {
  switch (action) {
    case 'created':
      return 'item.created';
    case 'updated':
    case 'assigned':
    case 'reopened':
      return 'item.updated';
    case 'completed':
      return 'item.completed';
    case 'deleted':
      return 'item.deleted';
    case 'restored':
      return 'item.restored';
    default:
      return null;
  }
}

interface HookRow {
  id: number;
  user_id: number;
  events: string[] | string;
  campaign_id: number | null;
}

/** Postgres arrays come back as arrays from both drivers, or as `{a,b}` text from a raw execute. */
function eventsOf(value: string[] | string): string[] {
  if (Array.isArray(value)) return value;
  return value
    .replace(/^\{|\}$/g, '')
    .split(',')
    .filter(Boolean);
}

/** A message id per event and endpoint (Standard Webhooks' `webhook-id`), the same on every retry. */
export const messageId = () => `msg_${randomUUID().replaceAll('-', '')}`;

/**
 * A child's data in a webhook event comes from its kind's registered part (`webhookData`: `{ comment }`,
 * `{ time_entry }`, or null when it is gone): each resource registers its own (app.ts), so this module
 * imports none of them.
 */
type WebhookPayloads = { [N in ItemChildName]: Pick<ItemChildServers[N], 'webhookData'> };

/**
 * Webhooks as a write effect (registered by app.ts): the outbox rows of the events the write noted,
 * in its transaction, and the sender's signal once it committed.
 */
export function webhookEffect(payloads: WebhookPayloads): WriteEffect {
  const hooks = {
    afterWrite: async (tx: Executor) => {
      if (await writeWebhookEvents(tx, payloads)) webhookSignal.mark(tx);
    },
    committed: (tx: Executor) => webhookSignal.committed(tx),
  };
  return () => hooks;
}

/**
 * Writes the outbox rows for the events this transaction noted: one per event and enabled webhook
 * that subscribes to it, whose owner sees what it is about (and, with a campaign, only inside it).
 * Answers whether it wrote any (the caller then wakes the sender after the commit).
 */
export async function writeWebhookEvents(tx: Executor, payloads: WebhookPayloads): Promise<boolean> {
  const events = noted.get(tx);
  if (!events || events.length === 0) return false;
  noted.delete(tx);
  // Only the hooks of people near the changed items (hearing.ts), never every enabled hook.
  const hooks = await rows<HookRow>(
    tx,
    hooksHearing(
      events.map((e) => (e.kind === 'member' ? e.campaign.id : e.itemId)),
      events.flatMap((e) => (e.kind === 'member' && e.type === 'member.removed' ? [e.member.id] : [])),
    ),
  );
  if (hooks.length === 0) return false;
  const outbox: {
    n: number;
    webhook_id: number;
    event_type: WebhookEventType;
    webhook_message_id: string;
    payload: string;
    item_id: number | null;
  }[] = [];
  for (const event of events) {
    const listening = hooks.filter((h) => subscribes(eventsOf(h.events), event.type));
    if (listening.length === 0) continue;
    const itemId = event.kind === 'member' ? event.campaign.id : event.itemId;
    const root = await rootOf(tx, itemId);
    const inScope = listening.filter((h) => h.campaign_id === null || h.campaign_id === root);
    if (inScope.length === 0) continue;
    const owners = [...new Set(inScope.map((h) => h.user_id))];
    const seeing = new Set(await seersAmong(tx, itemId, owners));
    // Whoever was just removed saw the campaign until this change: they hear of their removal.
    if (event.kind === 'member' && event.type === 'member.removed') seeing.add(event.member.id);
    // One body per owner: every webhook of one person hears the same thing of the same change.
    const bodies = new Map<number, string | null>();
    for (const hook of inScope) {
      if (!seeing.has(hook.user_id)) continue;
      if (!bodies.has(hook.user_id)) {
        const data = await dataOf(tx, event, hook.user_id, payloads);
        bodies.set(hook.user_id, data ? bodyOf(event.type, event.actor, event.at, data) : null);
      }
      const payload = bodies.get(hook.user_id);
      if (!payload) continue;
      outbox.push({
        n: outbox.length,
        webhook_id: hook.id,
        event_type: event.type,
        webhook_message_id: messageId(),
        payload,
        item_id: event.kind === 'member' ? null : itemId,
      });
    }
  }
  if (outbox.length === 0) return false;
  // One statement for every row, in the events' order (ids keep each item's events in order): the
  // write holds its family's lock meanwhile, and a row a round trip made writes queue behind it.
  await tx.execute(
    sql`INSERT INTO webhook_deliveries (webhook_id, event_type, webhook_message_id, payload, item_id)
        SELECT r.webhook_id, r.event_type, r.webhook_message_id, r.payload, r.item_id
        FROM jsonb_to_recordset(${JSON.stringify(outbox)}::jsonb)
          AS r(n int, webhook_id int, event_type text, webhook_message_id text, payload text, item_id int)
        ORDER BY r.n`,
  );
  return true;
}

/** A delivery's body: the event, when, who did it and what it is about, in the API's shapes. */
function bodyOf(
  type: WebhookEventType,
  actor: Actor | null,
  at: Date,
  data: Record<string, unknown>,
): string {
  return payloadBody({
    type,
    timestamp: at.toISOString(),
    actor: actor ? { id: actor.id, name: actor.name } : null,
    data,
  });
}

/** Writes one outbox row; answers its id. */
export async function enqueue(
  tx: Executor,
  webhookId: number,
  type: WebhookEventType,
  actor: Actor | null,
  at: Date,
  data: Record<string, unknown>,
  itemId: number | null,
  /** Already claimed by the caller until then (the test event, sent at once). */
  claimedUntil: Date | null = null,
): Promise<number> {
  const payload = bodyOf(type, actor, at, data);
  const [row] = await rows<{ id: number | string }>(
    tx,
    sql`INSERT INTO webhook_deliveries (webhook_id, event_type, webhook_message_id, payload, item_id, claimed_until)
        VALUES (${webhookId}, ${type}, ${messageId()}, ${payload}, ${itemId},
          ${claimedUntil ? claimedUntil.toISOString() : null}::timestamptz)
        RETURNING id`,
  );
  return Number(row!.id);
}

async function rootOf(tx: Executor, id: number): Promise<number> {
  const [row] = await rows<{ root: number }>(
    tx,
    sql`SELECT COALESCE(g.id, p.id, i.id) AS root FROM items i
        LEFT JOIN items p ON p.id = i.parent_id LEFT JOIN items g ON g.id = p.parent_id WHERE i.id = ${id}`,
  );
  return row?.root ?? id;
}

/** The event's data in the API's own shapes, as the webhook's owner would read it. */
async function dataOf(
  tx: Executor,
  event: NotedEvent,
  ownerId: number,
  payloads: WebhookPayloads,
): Promise<Record<string, unknown> | null> {
  if (event.kind === 'item') {
    const item = await findItem(tx, ownerId, event.itemId);
    return item ? { item } : null;
  }
  if (event.kind === 'child') return payloads[event.child].webhookData(tx, event.childId);
  return memberData(tx, event, ownerId);
}

/**
 * A member event's data: the member in the API's member shape (`GET …/members`: the user with the
 * phone as the owner may see it, the role, when they joined), the campaign, and on a role change the
 * role before it.
 */
async function memberData(
  tx: Executor,
  event: Extract<NotedEvent, { kind: 'member' }>,
  ownerId: number,
): Promise<Record<string, unknown> | null> {
  const [user] = await rows<{ id: number; name: string; phone: string; added_at: Date | string | null }>(
    tx,
    sql`SELECT u.id, u.name, ${phoneFor('u', ownerId)} AS phone, m.added_at FROM users u
        LEFT JOIN campaign_members m ON m.campaign_id = ${event.campaign.id} AND m.user_id = u.id
        WHERE u.id = ${event.member.id}`,
  );
  if (!user) return null;
  const member = {
    user: { id: user.id, name: user.name, phone: user.phone },
    role: event.member.role,
    added_at: iso(user.added_at ?? event.member.added_at ?? event.at),
  };
  return {
    member,
    campaign: event.campaign,
    ...(event.member.previous_role ? { previous_role: event.member.previous_role } : {}),
  };
}
