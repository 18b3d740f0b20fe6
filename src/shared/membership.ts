/**
 * Campaign members and roles (ARCHITECTURE §4 'Campaign members and invites', §5 'Roles'): who may do
 * what inside a shared campaign, the shapes of the members and invites requests, and when an invite
 * still opens the door. Pure, so the server's checks, the client's controls and the tests read one
 * table. The server decides; the client only hides what the server would refuse.
 */

export const ROLES = ['owner', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** The roles an owner may give (there is one owner, the campaign's creator). */
export const MEMBER_ROLES = ['editor', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** What a person may try inside a campaign. */
export const CAMPAIGN_ACTIONS = [
  'read',
  'comment',
  'edit',
  'status',
  'assign',
  'create',
  'move',
  'restore',
  'delete',
  'manageMembers',
  'invite',
  'leave',
] as const;
export type CampaignAction = (typeof CAMPAIGN_ACTIONS)[number];

/** What a viewer is told when a control they cannot use is explained (and the server's 403). */
export const VIEWER_READ_ONLY_MESSAGE =
  'You can view and comment on this campaign, but not change it. Ask its owner to make you an editor.';
/** The 403 an editor or viewer gets for the owner's own work (members, roles, invites). */
export const OWNER_ONLY_MESSAGE = 'Only the campaign’s owner can do this.';

/**
 * Whether `role` may do `action` inside the campaign. `createdIt` says whether the person created the
 * item concerned: an editor deletes only what they made (the creator of an item, or of its
 * top-level item, may delete it, §5 'Who sees what'); an owner deletes anything in their campaign.
 * A person with no role (null) sees the item only as its creator or assignee: the campaign's rules
 * do not apply to them, and they may do what §5 allows anyone who sees an item.
 */
export function mayDo(role: Role | null, action: CampaignAction, createdIt = false): boolean {
  switch (role) {
    case 'owner':
      return action !== 'leave';
    case 'editor':
      if (action === 'manageMembers' || action === 'invite') return false;
      if (action === 'delete') return createdIt;
      return true;
    case 'viewer':
      return action === 'read' || action === 'comment' || action === 'leave';
    default:
      if (action === 'manageMembers' || action === 'invite' || action === 'leave') return false;
      if (action === 'delete') return createdIt;
      return true;
  }
}

export const INVITE_DAYS = { min: 1, max: 30, default: 7 } as const;
export const INVITE_USES = { min: 1, max: 100, default: 1 } as const;

/** Most open invite links one campaign may have at once (issue 48): revoke one to make another. */
export const MAX_OPEN_INVITES = 50;

/** The 422 for an invite past MAX_OPEN_INVITES. */
export const TOO_MANY_INVITES_MESSAGE = `A campaign can have at most ${MAX_OPEN_INVITES} open invite links. Revoke one before making another.`;

/** The 422 for a member past the campaign's cap, to the owner adding and to a person accepting. */
export function campaignFullMessage(maxMembers: number): string {
  return `This campaign is full: it can have at most ${maxMembers} people, its owner included. Remove someone to make room.`;
}

/** 128 random bits, base64url: what an invite link carries (the server stores only its hash). */
export const INVITE_TOKEN = /^[A-Za-z0-9_-]{22,64}$/;

export interface InviteState {
  expires_at: string;
  revoked_at: string | null;
  uses: number;
  max_uses: number;
}

/**
 * Whether an invite still lets someone in at `now`. Unknown, expired, revoked and used up all read
 * as one 'invalid', so the answer tells a guesser nothing about which it was.
 */
export function inviteOpen(invite: InviteState | null, now: Date): boolean {
  if (!invite) return false;
  if (invite.revoked_at !== null) return false;
  if (invite.uses >= invite.max_uses) return false;
  return Date.parse(invite.expires_at) > now.getTime();
}

/** The one text for every invite that no longer opens ('This invite is no longer valid'). */
export const INVITE_INVALID_MESSAGE = 'This invite is no longer valid.';

/**
 * What a person who left or was removed from a campaign is told of it (SYNC.md Q22): whether the
 * owner removed them (and the owner's name) or they left. Nothing else: not even the title, which
 * may have changed since (the device keeps the one it saw). Checked by membershipSchemas.ts.
 */
export interface Departure {
  campaign_id: number;
  removed: boolean;
  by: string | null;
  departed_at: string;
}

/** A member to add (POST /api/campaigns/{id}/members). */
export interface MemberAdd {
  user_id: number;
  role: MemberRole;
}

/** An invite link to make (POST /api/campaigns/{id}/invites), its defaults filled. */
export interface InviteCreate {
  role: MemberRole;
  expires_in_days: number;
  max_uses: number;
}
