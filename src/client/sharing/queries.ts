/**
 * Members and invites are the server's alone (ARCHITECTURE §4): read through TanStack Query, signed in
 * and online only, under the server-list key so the door's change signal (a pull after a `changed`
 * event) refetches them like the device's live queries re-run.
 */
import { useQuery } from '@tanstack/react-query';
import type { Role } from '../../shared/membership';
import { useDoor } from '../app/door';
import { SERVER_LIST_KEY } from '../app/queryKeys';
import type { CampaignMember, InviteSummary } from '../data/commands/sharing';
import { useViewer } from '../items/queries';

export type { CampaignMember, CreatedInvite, InvitePreview, InviteSummary } from '../data/commands/sharing';

export const membersKey = (campaignId: number) => [SERVER_LIST_KEY, 'members', campaignId] as const;
export const invitesKey = (campaignId: number) => [SERVER_LIST_KEY, 'invites', campaignId] as const;
export const inviteKey = (token: string) => ['invite', token] as const;

/** The key an open invite is revoked by (`DELETE /api/invites/{key}`): its token or id as listed. */
export function revokeKey(invite: InviteSummary): string {
  return String(invite.token ?? invite.id ?? '');
}

/** What the sharing fields of an item say (optional until every server sends them). */
export interface SharingFields {
  id: number;
  my_role?: Role | null;
  members_count?: number;
}

/** The caller's role in the campaign an item lies in; null outside a shared campaign. */
export function roleOf(item: object): Role | null {
  return (item as SharingFields).my_role ?? null;
}

/** Whether a campaign is shared: it has members besides its owner, or the caller is one of them. */
export function isSharedCampaign(item: object): boolean {
  const role = roleOf(item);
  return role === 'editor' || role === 'viewer' || ((item as SharingFields).members_count ?? 0) > 1;
}

/**
 * A campaign's members, the owner first. Only asked for where it can answer: signed in, online, a
 * campaign the server has (a positive id). Kept for the session, so offline shows the last list.
 */
export function useMembers(campaignId: number, enabled = true) {
  const viewer = useViewer();
  const { send } = useDoor();
  return useQuery({
    queryKey: membersKey(campaignId),
    queryFn: ({ signal }) => send('sharing.members', { campaignId, signal }),
    enabled: enabled && !viewer.isGuest && viewer.online && campaignId > 0,
    gcTime: Number.POSITIVE_INFINITY,
    staleTime: 10_000,
  });
}

/** The owner's open invites of a campaign. */
export function useInvites(campaignId: number, enabled: boolean) {
  const viewer = useViewer();
  const { send } = useDoor();
  return useQuery({
    queryKey: invitesKey(campaignId),
    queryFn: ({ signal }) => send('sharing.invites', { campaignId, signal }),
    enabled: enabled && !viewer.isGuest && viewer.online && campaignId > 0,
  });
}

/** What an invite link opens onto; a 404 (every invalid case) is an error, never retried. */
export function useInvitePreview(token: string, enabled: boolean) {
  const { send } = useDoor();
  return useQuery({
    queryKey: inviteKey(token),
    queryFn: ({ signal }) => send('sharing.invite', { token, signal }),
    enabled,
    retry: (count, error) => count < 2 && (error as { status?: number }).status === 0,
  });
}

/** The member the signed-in user is, from the list. */
export function meIn(members: readonly CampaignMember[] | undefined, userId: number): CampaignMember | null {
  return members?.find((m) => m.user.id === userId) ?? null;
}
