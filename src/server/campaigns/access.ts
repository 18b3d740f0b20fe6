import {
  type CampaignAction,
  mayDo,
  OWNER_ONLY_MESSAGE,
  type Role,
  VIEWER_READ_ONLY_MESSAGE,
} from '../../shared/membership';
import { type Executor, prepared, rows, sql } from '../db/client';
import { HttpError } from '../http/errors';

const roleQuery = prepared(
  (userId: number, root: number) =>
    sql`SELECT CASE WHEN r.type = 'campaign' AND r.user_id = ${userId} THEN 'owner'
          ELSE (SELECT m.role FROM campaign_members m WHERE m.campaign_id = r.id AND m.user_id = ${userId}) END AS role
        FROM items r WHERE r.id = ${root}`,
);

/**
 * The user's role in the family under the top-level item `root` (§5 'Roles'): `owner` for the creator
 * of a campaign, their member row's role, or null (no campaign rules apply: a top-level task, or
 * work they see only as its creator or assignee).
 */
export async function roleInFamily(tx: Executor, userId: number, root: number): Promise<Role | null> {
  const [row] = await rows<{ role: Role | null }>(tx, roleQuery(userId, root));
  return row?.role ?? null;
}

/**
 * Refuses (403, with the message the client also shows) an action the user's role in the family
 * under `root` does not allow. Call it only for an item the user sees: whoever does not see it gets
 * the 404 of an unknown id before this.
 */
export async function assertRoleAllows(
  tx: Executor,
  userId: number,
  root: number,
  action: CampaignAction,
): Promise<Role | null> {
  const role = await roleInFamily(tx, userId, root);
  if (!mayDo(role, action, true)) {
    throw new HttpError(403, role === 'viewer' ? VIEWER_READ_ONLY_MESSAGE : OWNER_ONLY_MESSAGE);
  }
  return role;
}
