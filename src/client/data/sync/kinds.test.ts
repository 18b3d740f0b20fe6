import { describe, expect, it } from 'vitest';
import { ITEM_CHILDREN } from '../../../shared/itemChildren';
import { QUEUE_KINDS } from '../../../shared/protocol';
import type { OutpostDb } from '../store/db';
import { ITEM_KINDS, type QueueKindHooks, syncRegistry } from './kinds';

const hooks: QueueKindHooks = {
  onPushed: async () => undefined,
  onDropped: async () => ({ title: 'Not sent', reason: 'refused', note: '' }),
};
const db = {} as OutpostDb;

describe('dispatch by queue kind (sync/kinds.ts)', () => {
  it('Q17: an item’s own kinds are sync’s; a feature’s kind goes to the feature that registered it', () => {
    // One feature per declared child kind, holding its kinds.
    const registry = syncRegistry(
      ITEM_CHILDREN.map((child) => ({
        kinds: Object.fromEntries(Object.keys(child.requests).map((kind) => [kind, hooks])),
      })),
    );
    for (const kind of ITEM_KINDS) expect(registry.hooksOf(kind)).toBeNull();
    expect(registry.hooksOf('comment_edit')).toBe(hooks);
    // Every kind the protocol names is someone's.
    for (const kind of QUEUE_KINDS) expect(() => registry.hooksOf(kind)).not.toThrow();
  });

  it('Q17: a kind nobody registered is an error, never settled as an item’s; a kind is registered once', () => {
    expect(() => syncRegistry([]).hooksOf('comment_create')).toThrow(
      /No feature handles queue kind comment_create/,
    );
    expect(() =>
      syncRegistry([{ kinds: { comment_edit: hooks } }, { kinds: { comment_edit: hooks } }]),
    ).toThrow(/registered twice/);
    expect(() => syncRegistry([{ kinds: { update: hooks } }])).toThrow(/item's own/);
  });

  it('Q17: a pulled page and a guest upload go to every feature that asked, in order', async () => {
    const seen: string[] = [];
    const registry = syncRegistry([
      {
        onPulled: async (_db, page) => {
          seen.push(`pulled ${page.comments?.length}`);
        },
      },
      {
        onGuestUpgrade: async (_db, ids) => ({
          entries: [...ids.values()].map((itemId) => ({
            kind: 'comment_create',
            itemId,
            data: null,
            baseVersion: null,
          })),
        }),
      },
    ]);
    await registry.onPulled(db, { comments: [] });
    expect(seen).toEqual(['pulled 0']);
    const rows = await registry.onGuestUpgrade(db, new Map([[1, -7]]), { id: 2, name: 'Ann' });
    expect(rows).toEqual([
      { entries: [{ kind: 'comment_create', itemId: -7, data: null, baseVersion: null }] },
    ]);
  });
});
