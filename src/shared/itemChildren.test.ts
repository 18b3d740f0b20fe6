import { describe, expect, it } from 'vitest';
import { CHILD_QUEUE_KINDS, childOfKind, childOfMark, ITEM_CHILDREN } from './itemChildren';
import {
  ITEM_QUEUE_KINDS,
  isChildKind,
  QUEUE_KIND_LABELS,
  QUEUE_KINDS,
  queueRequest,
  sendsIfMatch,
} from './protocol';
import { WEBHOOK_EVENTS } from './webhooks';

describe('the children of an item, declared once', () => {
  it('K30: each kind has its own name, store and cursor mark, one character no cursor digit can be', () => {
    for (const key of ['name', 'store', 'cursorMark'] as const)
      expect(new Set(ITEM_CHILDREN.map((c) => c[key])).size).toBe(ITEM_CHILDREN.length);
    for (const { cursorMark } of ITEM_CHILDREN) expect(cursorMark).toMatch(/^[^0-9a-z.]$/);
    for (const child of ITEM_CHILDREN) expect(childOfMark(child.cursorMark)).toBe(child);
    expect(childOfMark('')).toBeNull();
  });

  it('K30: every queue kind belongs to one child kind or to the item, never both, and each has a request and a label', () => {
    expect(new Set(QUEUE_KINDS).size).toBe(QUEUE_KINDS.length);
    expect(QUEUE_KINDS).toEqual([...ITEM_QUEUE_KINDS, ...CHILD_QUEUE_KINDS]);
    for (const kind of ITEM_QUEUE_KINDS) expect(isChildKind(kind)).toBe(false);
    for (const kind of CHILD_QUEUE_KINDS) {
      const child = childOfKind(kind)!;
      expect(ITEM_CHILDREN.filter((c) => Object.hasOwn(c.requests, kind))).toEqual([child]);
      expect(sendsIfMatch(kind)).toBe(false);
      expect(QUEUE_KIND_LABELS[kind]).toMatch(/\w/);
      expect(queueRequest(kind, 7, 42, 'ref').url).toMatch(/^\/api\//);
    }
    for (const child of ITEM_CHILDREN) {
      expect(Object.keys(child.requests)).toContain(child.createKind);
      expect(Object.keys(child.requests)).toContain(child.deleteKind);
      expect(queueRequest(child.createKind, 7).url).toContain('/api/items/7/');
    }
  });

  it('K30: a kind whose queue rows name it by the device’s id never sends a temporary one: its create names only its item', () => {
    const byId = ITEM_CHILDREN.filter((c) => c.queueKey === 'id');
    expect(byId.map((c) => c.name)).toEqual(['comments']);
    for (const child of byId)
      expect(queueRequest(child.createKind, 7, -3).url).toBe(`/api/items/7/${child.name}`);
  });

  it('K30: a kind’s webhook events are events a webhook may subscribe to, each of one kind', () => {
    const events = ITEM_CHILDREN.flatMap((c) => c.webhookEvents);
    expect(new Set(events).size).toBe(events.length);
    for (const event of events) expect(WEBHOOK_EVENTS).toContain(event);
  });
});
