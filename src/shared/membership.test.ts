import { describe, expect, it } from 'vitest';
import { CAMPAIGN_ACTIONS, type CampaignAction, inviteOpen, mayDo, type ROLES } from './membership';
import { inviteCreateSchema, memberAddSchema, memberPatchSchema } from './membershipSchemas';

const allowed = (role: (typeof ROLES)[number] | null, createdIt = false) =>
  CAMPAIGN_ACTIONS.filter((a) => mayDo(role, a, createdIt));

describe('roles inside a shared campaign', () => {
  it('lets the owner do everything but leave their own campaign', () => {
    expect(allowed('owner')).toEqual(CAMPAIGN_ACTIONS.filter((a) => a !== 'leave'));
  });

  it('lets an editor do all an owner does to items, delete only what they made, and never manage members or invites', () => {
    const editor: CampaignAction[] = [
      'read',
      'comment',
      'edit',
      'status',
      'assign',
      'create',
      'move',
      'restore',
      'leave',
    ];
    expect(allowed('editor')).toEqual(editor);
    expect(allowed('editor', true)).toEqual([...editor.slice(0, 8), 'delete', 'leave']);
  });

  it('lets a viewer read, comment and leave, and nothing else, whatever they made', () => {
    expect(allowed('viewer')).toEqual(['read', 'comment', 'leave']);
    expect(allowed('viewer', true)).toEqual(['read', 'comment', 'leave']);
  });

  it('leaves someone outside the campaign (creator or assignee only) with what anyone who sees an item may do', () => {
    expect(allowed(null)).toEqual([
      'read',
      'comment',
      'edit',
      'status',
      'assign',
      'create',
      'move',
      'restore',
    ]);
    expect(mayDo(null, 'delete', true)).toBe(true);
  });
});

describe('members and invites requests', () => {
  it('takes a person and a role an owner may give, and refuses owner, strangers to the shape and extra keys', () => {
    expect(memberAddSchema.safeParse({ user_id: 7, role: 'viewer' }).success).toBe(true);
    for (const bad of [
      { user_id: 7, role: 'owner' },
      { user_id: 0, role: 'editor' },
      { user_id: 1.5, role: 'editor' },
      { user_id: '7', role: 'editor' },
      { user_id: 7, role: 'editor', is_admin: true },
    ])
      expect(memberAddSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    expect(memberPatchSchema.safeParse({ role: 'editor' }).success).toBe(true);
    expect(memberPatchSchema.safeParse({ role: 'owner' }).success).toBe(false);
  });

  it('gives an invite 7 days and one use unless told, within 1–30 days and 1–100 uses', () => {
    expect(inviteCreateSchema.parse({ role: 'editor' })).toEqual({
      role: 'editor',
      expires_in_days: 7,
      max_uses: 1,
    });
    expect(inviteCreateSchema.parse({ role: 'viewer', expires_in_days: 30, max_uses: 100 })).toMatchObject({
      expires_in_days: 30,
      max_uses: 100,
    });
    for (const bad of [{ expires_in_days: 0 }, { expires_in_days: 31 }, { max_uses: 0 }, { max_uses: 101 }])
      expect(inviteCreateSchema.safeParse({ role: 'viewer', ...bad }).success, JSON.stringify(bad)).toBe(
        false,
      );
  });

  it('opens an invite only while it is unrevoked, unexpired and not used up, one answer for every other case', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    const open = { expires_at: '2026-11-26T12:00:00Z', revoked_at: null, uses: 0, max_uses: 1 };
    expect(inviteOpen(open, now)).toBe(true);
    expect(inviteOpen(null, now)).toBe(false);
    expect(inviteOpen({ ...open, expires_at: '2026-11-25T12:00:00Z' }, now)).toBe(false);
    expect(inviteOpen({ ...open, revoked_at: '2026-11-25T11:00:00Z' }, now)).toBe(false);
    expect(inviteOpen({ ...open, uses: 1 }, now)).toBe(false);
    expect(inviteOpen({ ...open, uses: 4, max_uses: 5 }, now)).toBe(true);
  });
});
