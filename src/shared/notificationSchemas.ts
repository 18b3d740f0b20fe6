import { z } from 'zod';

// Apart from ./notifications, whose rules the client bundles: zod stays out of the app's first chunks.

/** The body of POST /api/notifications/read: some ids, or none for every entry. */
export const markReadSchema = z.strictObject({
  ids: z
    .array(z.number({ error: 'Each id must be a number.' }).int().positive(), {
      error: 'ids must be a list of notification ids.',
    })
    .max(500, 'At most 500 ids at once.')
    .optional(),
});

/** Page numbers for GET /api/notifications. */
export const notificationListSchema = z.object({
  page: z.coerce.number({ error: 'The page must be a number.' }).int().min(1).max(1_000_000).optional(),
  per_page: z.coerce.number({ error: 'per_page must be a number.' }).int().min(1).optional(),
});

/** A base64url value of a Web Push key, bounded so nobody stores a megabyte in it. */
const keyText = (name: string, max: number) =>
  z
    .string({ error: `${name} is required.` })
    .min(1, `${name} is required.`)
    .max(max, `${name} is longer than a Web Push key (${max} characters at most).`)
    .regex(/^[A-Za-z0-9_-]+=*$/, `${name} must be base64url.`);

/** The body of POST /api/push/subscriptions, as PushSubscription.toJSON() gives it. */
export const pushSubscriptionSchema = z.object({
  endpoint: z
    .string({ error: 'The endpoint is required.' })
    .min(1, 'The endpoint is required.')
    .max(2048, 'The endpoint is longer than 2048 characters.'),
  keys: z.object(
    { p256dh: keyText('keys.p256dh', 128), auth: keyText('keys.auth', 64) },
    { error: 'keys must hold p256dh and auth.' },
  ),
  expirationTime: z.number().nullable().optional(),
});

/** The body of DELETE /api/push/subscriptions. */
export const pushEndpointSchema = z.object({
  endpoint: z.string({ error: 'The endpoint is required.' }).min(1).max(2048),
});
