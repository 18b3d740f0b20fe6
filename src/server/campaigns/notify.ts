import { type MembershipNotificationKind, membershipText } from '../../shared/notifications';
import type { Executor } from '../db/client';
import { addNotification } from '../notifications/record';

/**
 * The `added` / `removed` / `role_changed` notification to the person a membership change concerns
 * (§5 'Notifications', with the role), never to the one who made it: leaving tells nobody.
 */
export async function notifyMembership(
  tx: Executor,
  kind: MembershipNotificationKind,
  actor: { id: number; name: string },
  userId: number,
  campaign: { id: number; type: 'campaign'; title: string },
  role: 'editor' | 'viewer',
): Promise<void> {
  if (userId === actor.id) return;
  await addNotification(tx, {
    userId,
    kind,
    actor,
    item: campaign,
    text: membershipText(kind, actor.name, campaign.title, role),
  });
}
