/**
 * The owner's and members' writes on a campaign's members and invites: each goes to the server at
 * once (nothing is queued: membership is the server's), refreshes the lists it changed, and says
 * what happened in the spec's toast style, a refusal with the server's own message.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InviteCreate, MemberRole } from '../../shared/membership';
import { useDoor, useToast } from '../app/door';
import { type CampaignMember, type InviteSummary, invitesKey, membersKey, revokeKey } from './queries';

const NETWORK_TEXT = 'You’re offline or the server can’t be reached. Please try again.';

/** The text of a refusal: the server's message, or what to do when no answer came. */
export function errorText(error: unknown, fallback: string): string {
  const { status, message } = (error ?? {}) as { status?: unknown; message?: unknown };
  if (status === 0) return NETWORK_TEXT;
  if (typeof status === 'number' && typeof message === 'string' && message !== '') return message;
  return fallback;
}

export const ROLE_TEXT: Record<MemberRole, string> = {
  editor: 'can edit',
  viewer: 'can view',
};

export function useMemberMutations(campaignId: number) {
  const { send } = useDoor();
  const toast = useToast();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: membersKey(campaignId) });
  const fail = (fallback: string) => (error: unknown) =>
    void toast({ title: 'Error', description: errorText(error, fallback), variant: 'destructive' });

  const add = useMutation({
    mutationFn: (a: { userId: number; name: string; role: MemberRole }) =>
      send('sharing.addMember', { campaignId, userId: a.userId, role: a.role }),
    onSuccess: (_member, a) => {
      toast({ title: 'Member added', description: `${a.name} ${ROLE_TEXT[a.role]} this campaign now.` });
      return refresh();
    },
    onError: fail('Failed to add the member. Please try again.'),
  });
  const setRole = useMutation({
    mutationFn: (a: { member: CampaignMember; role: MemberRole }) =>
      send('sharing.setRole', { campaignId, userId: a.member.user.id, role: a.role }),
    onSuccess: (_r, a) => {
      toast({
        title: 'Role changed',
        description: `${a.member.user.name} ${ROLE_TEXT[a.role]} this campaign now.`,
      });
      return refresh();
    },
    onError: fail('Failed to change the role. Please try again.'),
  });
  const remove = useMutation({
    mutationFn: (member: CampaignMember) =>
      send('sharing.removeMember', { campaignId, userId: member.user.id }),
    onSuccess: (_r, member) => {
      toast({ title: 'Member removed', description: `${member.user.name} no longer has this campaign.` });
      return refresh();
    },
    onError: fail('Failed to remove the member. Please try again.'),
  });
  /** Leaving: the next sync takes the campaign off this device (its tombstones). */
  const leave = useMutation({
    mutationFn: async (me: CampaignMember) => {
      await send('sharing.removeMember', { campaignId, userId: me.user.id });
      await send('sync.now', { quiet: true }).catch(() => undefined);
    },
    onSuccess: () => {
      toast({ title: 'You left the campaign', description: 'It is no longer on your devices.' });
      queryClient.removeQueries({ queryKey: membersKey(campaignId) });
    },
    onError: fail('Failed to leave the campaign. Please try again.'),
  });
  return { add, setRole, remove, leave };
}

export function useInviteMutations(campaignId: number) {
  const { send } = useDoor();
  const toast = useToast();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: invitesKey(campaignId) });
  const create = useMutation({
    mutationFn: (a: InviteCreate) => send('sharing.createInvite', { campaignId, ...a }),
    onSuccess: () => refresh(),
    onError: (error) =>
      void toast({
        title: 'Error',
        description: errorText(error, 'Failed to make the link. Please try again.'),
        variant: 'destructive',
      }),
  });
  const revoke = useMutation({
    mutationFn: (invite: InviteSummary) => send('sharing.revokeInvite', revokeKey(invite)),
    onSuccess: () => {
      toast({ title: 'Invite revoked', description: 'The link no longer works.' });
      return refresh();
    },
    onError: (error) =>
      void toast({
        title: 'Error',
        description: errorText(error, 'Failed to revoke the invite. Please try again.'),
        variant: 'destructive',
      }),
  });
  return { create, revoke };
}
