// The membership routes' zod shapes, apart from the roles and rules in membership.ts, which the
// screens and the data layer load early: zod comes with the first form or answer that needs it.
import { z } from 'zod';
import { type Departure, INVITE_DAYS, INVITE_USES, MEMBER_ROLES, type MemberAdd } from './membership';

const roleField = (error: string) => z.enum(MEMBER_ROLES, { error });
const ROLE_ERROR = 'The role must be editor or viewer.';

/** POST /api/campaigns/{id}/members. */
export const memberAddSchema: z.ZodType<MemberAdd> = z.strictObject({
  user_id: z
    .number({ error: 'Choose a person.' })
    .int('Choose a person.')
    .min(1, 'Choose a person.')
    .max(2_147_483_647, 'Choose a person.'),
  role: roleField(ROLE_ERROR),
});

/** PATCH /api/campaigns/{id}/members/{user_id}. */
export const memberPatchSchema = z.strictObject({ role: roleField(ROLE_ERROR) });

/** POST /api/campaigns/{id}/invites. */
export const inviteCreateSchema = z.strictObject({
  role: roleField(ROLE_ERROR),
  expires_in_days: z
    .number({ error: 'The expiry must be a number of days.' })
    .int('The expiry must be a whole number of days.')
    .min(INVITE_DAYS.min, `An invite lasts ${INVITE_DAYS.min} to ${INVITE_DAYS.max} days.`)
    .max(INVITE_DAYS.max, `An invite lasts ${INVITE_DAYS.min} to ${INVITE_DAYS.max} days.`)
    .default(INVITE_DAYS.default),
  max_uses: z
    .number({ error: 'The uses must be a number.' })
    .int('The uses must be a whole number.')
    .min(INVITE_USES.min, `An invite may be used ${INVITE_USES.min} to ${INVITE_USES.max} times.`)
    .max(INVITE_USES.max, `An invite may be used ${INVITE_USES.min} to ${INVITE_USES.max} times.`)
    .default(INVITE_USES.default),
});

/** What a departed person is told of a campaign (membership.ts Departure, SYNC.md Q22). */
export const departureSchema: z.ZodType<Departure> = z.object({
  campaign_id: z.number().int(),
  removed: z.boolean(),
  by: z.string().nullable(),
  departed_at: z.string(),
});
