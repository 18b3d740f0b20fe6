import { z } from 'zod';
import type { NotificationKind } from './notifications';

/**
 * The switches of Preferences › Email (ARCHITECTURE §4 'Email'): each groups the notification kinds
 * it mails. On by default: assigned, mentioned and reminders.
 */
export const EMAIL_KINDS = [
  'assigned',
  'mentioned',
  'commented',
  'due',
  'status',
  'updated',
  'sharing',
] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

export const EMAIL_KIND_DEFAULTS: Readonly<Record<EmailKind, boolean>> = {
  assigned: true,
  mentioned: true,
  commented: false,
  due: true,
  status: false,
  updated: false,
  sharing: false,
};

/** The switches' labels and what each covers, as Preferences › Email shows them. */
export const EMAIL_KIND_LABELS: Readonly<Record<EmailKind, { label: string; hint: string }>> = {
  assigned: { label: 'Assigned to me', hint: 'Someone gives you an item, or takes it back.' },
  mentioned: { label: 'Mentions', hint: 'Someone @mentions you in a comment.' },
  commented: { label: 'Comments', hint: 'New comments on items you created or are assigned.' },
  due: { label: 'Reminders', hint: 'An item’s reminder time comes.' },
  status: {
    label: 'Completed and reopened',
    hint: 'Your items are completed, reopened, deleted or restored.',
  },
  updated: { label: 'Edits', hint: 'Someone edits an item you created or are assigned.' },
  sharing: { label: 'Sharing', hint: 'You are added to or removed from a campaign.' },
};

const KIND_OF: Readonly<Record<NotificationKind, EmailKind>> = {
  assigned: 'assigned',
  unassigned: 'assigned',
  mentioned: 'mentioned',
  commented: 'commented',
  due: 'due',
  completed: 'status',
  reopened: 'status',
  deleted: 'status',
  restored: 'status',
  updated: 'updated',
  added: 'sharing',
  removed: 'sharing',
  role_changed: 'sharing',
};

/** The switch that decides whether a notification of `kind` is mailed; null for a kind never mailed. */
export function emailKindOf(kind: string): EmailKind | null {
  return (KIND_OF as Record<string, EmailKind | undefined>)[kind] ?? null;
}

/** A person's switches: what they set over the defaults. */
export function emailKindsWith(stored: Partial<Record<string, unknown>>): Record<EmailKind, boolean> {
  const out = { ...EMAIL_KIND_DEFAULTS };
  for (const kind of EMAIL_KINDS) {
    const value = stored[kind];
    if (typeof value === 'boolean') out[kind] = value;
  }
  return out;
}

/**
 * An address Outpost mails to: one `local@domain` with no spaces, angle brackets, quotes or line
 * breaks (nothing a header could be split by), at most 254 characters, the domain with a dot.
 */
export const emailAddressSchema = z
  .string({ error: 'Enter an email address.' })
  .trim()
  .max(254, 'That address is too long.')
  .regex(
    /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/,
    'Enter an email address such as ann@example.com.',
  );

/** The address an email is compared by: the domain is case-blind; local parts are taken as given. */
export function normalizeEmail(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 0
    ? address.trim()
    : `${address.slice(0, at).trim()}@${address
        .slice(at + 1)
        .trim()
        .toLowerCase()}`;
}

/** PUT /api/me/email. */
export const emailChangeSchema = z.object({ email: emailAddressSchema }).strict();

/** POST /api/me/email/verify: the token the verification mail's link carries. */
export const emailVerifySchema = z
  .object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'That link is not a verification link.') })
  .strict();

/** GET /api/me/email: the address (null when none) and whether it is verified. */
export const emailStateSchema = z.object({
  email: z.string().nullable(),
  verified: z.boolean(),
  /** Whether this server sends mail at all (SMTP_URL is set). */
  sending: z.boolean(),
});
export type EmailState = z.infer<typeof emailStateSchema>;

const kindsShape = Object.fromEntries(EMAIL_KINDS.map((k) => [k, z.boolean()])) as Record<
  EmailKind,
  z.ZodBoolean
>;

/** GET /api/me/email/preferences. */
export const emailPreferencesSchema = z.object({
  kinds: z.object(kindsShape),
  digest_hour: z.number().int().min(0).max(23).nullable(),
  time_zone: z.string(),
});
export type EmailPreferences = z.infer<typeof emailPreferencesSchema>;

/** PATCH /api/me/email/preferences: any of the switches, the digest hour, the zone it is read in. */
export const emailPreferencesPatchSchema = z
  .object({
    kinds: z.object(kindsShape).partial().strict().optional(),
    digest_hour: z
      .number({ error: 'digest_hour must be an hour from 0 to 23, or null' })
      .int('digest_hour must be an hour from 0 to 23, or null')
      .min(0, 'digest_hour must be an hour from 0 to 23, or null')
      .max(23, 'digest_hour must be an hour from 0 to 23, or null')
      .nullable()
      .optional(),
    time_zone: z
      .string()
      .max(64)
      .refine(isTimeZone, 'time_zone must be an IANA zone such as Europe/Paris')
      .optional(),
  })
  .strict();

/** Whether `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** GET /api/campaigns/{id}/inbound_address and its rotate. */
export const inboundAddressSchema = z.object({ address: z.string() });

/**
 * A campaign's secret inbound address's local part: `c-` and 22 lower-case letters and digits (about
 * 113 bits), at INBOUND_DOMAIN. Lower case because some mail systems fold local parts.
 */
export const CAMPAIGN_ADDRESS_PATTERN = /^c-([a-z0-9]{22})$/;

/** A notification mail's Reply-To local part: `r-` and a token naming the person and the item. */
export const REPLY_ADDRESS_PATTERN = /^r-([a-z2-7]{32})$/;
