/**
 * Campaign members and invites (ARCHITECTURE §4 'Campaign members and invites'): server-only data, for
 * a signed-in user online. The device keeps none of it; the screens read it through TanStack Query
 * (src/client/sharing). The request bodies are checked by the shared schemas before they go.
 */

import { DEFAULT_PER_PAGE, type Paginated } from '../../../shared/item';
import {
  type Departure,
  type InviteCreate,
  MAX_OPEN_INVITES,
  type MemberRole,
  type Role,
} from '../../../shared/membership';
import {
  departureSchema,
  inviteCreateSchema,
  memberAddSchema,
  memberPatchSchema,
} from '../../../shared/membershipSchemas';
import type { ApiClient } from '../net/apiClient';
import type { LazyEngine } from '../sync/lazyEngine';
import { defineCommands } from './map';

/** Members and invites are server data: the API, and a sync after joining. */
export interface SharingContext {
  api: ApiClient;
  engine: Pick<LazyEngine, 'sync'>;
}

export interface MemberUser {
  id: number;
  name: string;
  /** E.164, or null where the server does not show it (§5's phone rule). */
  phone: string | null;
}

export interface CampaignMember {
  user: MemberUser;
  role: Role;
  added_at: string | null;
}

/** An open invite as the owner's list shows it (the token is not shown again). */
export interface InviteSummary {
  /** What DELETE /api/invites/{…} takes for it: the server's id or token, whichever it lists. */
  id?: number | string;
  token?: string;
  role: MemberRole;
  expires_at: string;
  max_uses: number;
  uses: number;
  created_at?: string;
}

/** A new invite: the only time its token and link are shown. */
export interface CreatedInvite extends InviteSummary {
  token: string;
  url: string;
}

/** What an invite link opens onto (GET /api/invites/{token}). */
export interface InvitePreview {
  campaign: { id: number; title: string };
  role: MemberRole;
  inviter: { id: number; name: string };
}

type Signal = { signal?: AbortSignal };
const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});
const members = (campaignId: number) => `/campaigns/${encodeURIComponent(String(campaignId))}/members`;

export const commands = defineCommands<SharingContext>()({
  /**
   * Whether the user left or was removed from campaign `id`, and by whom (Q22, Q24): the server's 404
   * for it says so; null when it says nothing (never shared with them, or they see it).
   */
  'sharing.departure': async (c, id: number): Promise<Departure | null> => {
    try {
      await c.api.get(`/items/${id}`);
      return null;
    } catch (error) {
      const parsed = departureSchema.safeParse((error as { data?: { departure?: unknown } }).data?.departure);
      return parsed.success ? parsed.data : null;
    }
  },
  /** The campaign's members, the owner first. */
  'sharing.members': async (c, a: { campaignId: number } & Signal) =>
    (await c.api.get<{ members: CampaignMember[] }>(members(a.campaignId), withSignal(a.signal))).data
      .members,
  /** A campaign's members and the ids of people who left or were removed (M15), for assignee pickers. */
  'sharing.roster': async (c, a: { campaignId: number } & Signal) =>
    (
      await c.api.get<{ members: CampaignMember[]; departed?: number[] }>(
        members(a.campaignId),
        withSignal(a.signal),
      )
    ).data,
  /** Adds a mutual contact (or sets the role of someone already in). */
  'sharing.addMember': async (c, a: { campaignId: number; userId: number; role: MemberRole }) =>
    (
      await c.api.post<{ member: CampaignMember }>(
        members(a.campaignId),
        memberAddSchema.parse({ user_id: a.userId, role: a.role }),
      )
    ).data.member,
  'sharing.setRole': async (c, a: { campaignId: number; userId: number; role: MemberRole }) => {
    await c.api.patch(`${members(a.campaignId)}/${a.userId}`, memberPatchSchema.parse({ role: a.role }));
  },
  /** Removes a member; the member's own id is leaving. */
  'sharing.removeMember': async (c, a: { campaignId: number; userId: number }) => {
    await c.api.delete(`${members(a.campaignId)}/${a.userId}`);
  },
  /**
   * The owner's open invites, every page of them: the server pages the list (20 a page) and holds at
   * most MAX_OPEN_INVITES open, so this is three requests at most.
   */
  'sharing.invites': async (c, a: { campaignId: number } & Signal) => {
    const all: InviteSummary[] = [];
    const pages = Math.ceil(MAX_OPEN_INVITES / DEFAULT_PER_PAGE);
    for (let page = 1; page <= pages; page++) {
      const { data } = await c.api.get<Paginated<InviteSummary>>(
        `/campaigns/${encodeURIComponent(String(a.campaignId))}/invites?page=${page}`,
        withSignal(a.signal),
      );
      all.push(...data.data);
      if (data.current_page >= data.last_page) break;
    }
    return all;
  },
  'sharing.createInvite': async (c, a: { campaignId: number } & Partial<InviteCreate>) => {
    const { campaignId, ...body } = a;
    return (
      await c.api.post<CreatedInvite>(
        `/campaigns/${encodeURIComponent(String(campaignId))}/invites`,
        inviteCreateSchema.parse(body),
      )
    ).data;
  },
  'sharing.revokeInvite': async (c, key: string) => {
    await c.api.delete(`/invites/${encodeURIComponent(key)}`);
  },
  /** What an invite link opens onto; 404 for every invite that no longer opens. */
  'sharing.invite': async (c, a: { token: string } & Signal) =>
    (await c.api.get<InvitePreview>(`/invites/${encodeURIComponent(a.token)}`, withSignal(a.signal))).data,
  /**
   * Joins through an invite, then syncs so the campaign is on the device before its page opens (a
   * failed sync leaves it to the next run: the join itself is done).
   */
  'sharing.accept': async (c, token: string) => {
    const { data } = await c.api.post<{ campaign_id: number; role: Role }>(
      `/invites/${encodeURIComponent(token)}/accept`,
      {},
    );
    await c.engine.sync({ quiet: true }).catch(() => undefined);
    return data;
  },
});
