import type { ItemType } from '../../shared/item';

/** A rendered mail: what the outbox keeps and sends. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** One item as a mail lists it. */
export interface MailItem {
  title: string;
  type: ItemType;
  /** Absolute link that opens it. */
  url: string;
  /** YYYY-MM-DD. */
  due_date: string | null;
  priority: number;
  /** Its visible ancestors' titles, outermost first. */
  breadcrumb: readonly string[];
}

const TYPE_COLOUR: Record<ItemType, string> = { campaign: '#0891b2', task: '#16a34a', todo: '#d97706' };
const PRIORITY_COLOUR: Record<number, string> = { 1: '#dc2626', 2: '#ea580c', 3: '#2563eb' };

/** Controls, NUL and Unicode line separators: nothing that may stand in a header. */
function isControl(code: number): boolean {
  return code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029;
}

/**
 * A header-safe line: line breaks, NUL and other controls (and Unicode line separators) become
 * spaces, so no title or name can start a header of its own; capped at `max` characters.
 */
export function headerText(value: string, max = 200): string {
  let spaced = '';
  for (const char of value) spaced += isControl(char.codePointAt(0) ?? 0) ? ' ' : char;
  const flat = spaced.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Text made safe to stand in HTML, attribute values included. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function page(title: string, body: string, footer: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:0;background:#f4f4f5;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#18181b;">
<div style="max-width:560px;margin:0 auto;padding:24px 16px;">
<div style="font-size:15px;font-weight:600;color:#4f46e5;margin:0 0 16px;">Outpost</div>
<div style="background:#ffffff;border:1px solid #e4e4e7;border-radius:12px;padding:24px;">
${body}
</div>
<p style="font-size:12px;line-height:18px;color:#71717a;margin:16px 4px 0;">${footer}</p>
</div></body></html>`;
}

function button(url: string, label: string): string {
  return `<p style="margin:24px 0 0;"><a href="${escapeHtml(url)}" style="display:inline-block;background:#4f46e5;color:#ffffff;text-decoration:none;font-weight:600;font-size:15px;padding:10px 18px;border-radius:8px;">${escapeHtml(label)}</a></p>`;
}

function crumbs(breadcrumb: readonly string[]): string {
  if (breadcrumb.length === 0) return '';
  return `<p style="margin:0 0 8px;font-size:13px;color:#71717a;">${breadcrumb.map(escapeHtml).join(' › ')}</p>`;
}

function itemLine(item: MailItem, lateText: string | null): string {
  const colour = PRIORITY_COLOUR[item.priority];
  const flag = colour ? `<span style="color:${colour};font-weight:600;">P${item.priority}</span>` : null;
  const meta = [item.breadcrumb.join(' › '), lateText]
    .filter((part): part is string => Boolean(part))
    .map(escapeHtml);
  const line = [flag, ...meta].filter((part): part is string => part !== null).join(' · ');
  return `<tr><td style="padding:10px 0;border-top:1px solid #f4f4f5;">
<span style="display:inline-block;width:8px;height:8px;border-radius:4px;background:${TYPE_COLOUR[item.type]};margin-right:8px;"></span><a href="${escapeHtml(item.url)}" style="color:#18181b;text-decoration:none;font-size:15px;">${escapeHtml(item.title)}</a>
${line ? `<div style="font-size:12px;color:#71717a;margin:2px 0 0 16px;">${line}</div>` : ''}</td></tr>`;
}

/** The footer line of a notification mail: why it came and how to stop it. */
function notificationFooter(reason: string, preferencesUrl: string, canReply: boolean): string {
  const reply = canReply ? ' Reply to this mail to add a comment.' : '';
  return `${escapeHtml(reason)}${reply} <a href="${escapeHtml(preferencesUrl)}" style="color:#71717a;">Change which mails you get</a>.`;
}

/**
 * A notification as a mail (DESIGN.md 'Email'): the notification's own words as subject and heading,
 * the item's breadcrumb, one 'Open in Outpost' button, and a footer saying why it came.
 */
export function renderNotificationMail(input: {
  text: string;
  item: { title: string; type: ItemType; breadcrumb: readonly string[] } | null;
  url: string;
  reason: string;
  preferencesUrl: string;
  canReply: boolean;
}): RenderedMail {
  const subject = headerText(input.text);
  const title = input.item
    ? `<p style="margin:16px 0 0;font-size:15px;"><span style="display:inline-block;width:8px;height:8px;border-radius:4px;background:${TYPE_COLOUR[input.item.type]};margin-right:8px;"></span>${escapeHtml(input.item.title)}</p>`
    : '';
  const html = page(
    subject,
    `${input.item ? crumbs(input.item.breadcrumb) : ''}<h1 style="margin:0;font-size:18px;line-height:26px;font-weight:600;">${escapeHtml(input.text)}</h1>${title}${button(input.url, 'Open in Outpost')}`,
    notificationFooter(input.reason, input.preferencesUrl, input.canReply),
  );
  const text = [
    input.item && input.item.breadcrumb.length > 0 ? input.item.breadcrumb.join(' › ') : null,
    input.text,
    '',
    `Open in Outpost: ${input.url}`,
    '',
    '-- ',
    `${input.reason}${input.canReply ? ' Reply to this mail to add a comment.' : ''}`,
    `Change which mails you get: ${input.preferencesUrl}`,
  ]
    .filter((line): line is string => line !== null)
    .join('\n');
  return { subject, text, html };
}

/** '3 days overdue' for the digest. */
function late(due: string | null, today: string): string | null {
  if (!due) return null;
  const days = Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${due}T00:00:00Z`)) / 86_400_000);
  return days <= 0 ? null : `${days} ${days === 1 ? 'day' : 'days'} overdue`;
}

/**
 * The daily digest (DESIGN.md 'Email'): Overdue and Today, grouped like the Today page, each row a
 * link to its item; the footer says how to stop it (one click, no sign-in).
 */
export function renderDigestMail(input: {
  today: string;
  /** 'Monday 30 November', in the person's words. */
  dayLabel: string;
  overdue: readonly MailItem[];
  dueToday: readonly MailItem[];
  /** Items past the ones listed. */
  more: number;
  todayUrl: string;
  unsubscribeUrl: string;
  preferencesUrl: string;
}): RenderedMail {
  const count = input.overdue.length + input.dueToday.length + input.more;
  const parts = [
    input.overdue.length > 0 ? `${input.overdue.length} overdue` : null,
    input.dueToday.length > 0 ? `${input.dueToday.length} due today` : null,
  ].filter((p): p is string => p !== null);
  const subject = headerText(`Your day: ${parts.join(', ')}`);
  const group = (name: string, items: readonly MailItem[], colour: string) =>
    items.length === 0
      ? ''
      : `<h2 style="margin:20px 0 4px;font-size:13px;text-transform:uppercase;letter-spacing:.04em;color:${colour};">${name} · ${items.length}</h2><table role="presentation" style="width:100%;border-collapse:collapse;">${items.map((item) => itemLine(item, late(item.due_date, input.today))).join('')}</table>`;
  const more =
    input.more > 0
      ? `<p style="margin:12px 0 0;font-size:13px;color:#71717a;">And ${input.more} more on your Today page.</p>`
      : '';
  const html = page(
    subject,
    `<h1 style="margin:0;font-size:18px;font-weight:600;">${escapeHtml(input.dayLabel)}</h1>
<p style="margin:4px 0 0;font-size:14px;color:#52525b;">${count} ${count === 1 ? 'item needs' : 'items need'} you today.</p>
${group('Overdue', input.overdue, '#dc2626')}${group('Today', input.dueToday, '#4f46e5')}${more}${button(input.todayUrl, 'Open in Outpost')}`,
    `You get this digest because you turned it on in Preferences › Email. <a href="${escapeHtml(input.unsubscribeUrl)}" style="color:#71717a;">Stop the daily digest</a> · <a href="${escapeHtml(input.preferencesUrl)}" style="color:#71717a;">Change the hour</a>.`,
  );
  const lines = (name: string, items: readonly MailItem[]) =>
    items.length === 0
      ? []
      : [
          '',
          `${name.toUpperCase()} (${items.length})`,
          ...items.map((item) => {
            const meta = [item.breadcrumb.join(' › '), late(item.due_date, input.today)].filter(Boolean);
            return `- ${item.title}${meta.length > 0 ? ` (${meta.join(', ')})` : ''}\n  ${item.url}`;
          }),
        ];
  const text = [
    input.dayLabel,
    `${count} ${count === 1 ? 'item needs' : 'items need'} you today.`,
    ...lines('Overdue', input.overdue),
    ...lines('Today', input.dueToday),
    ...(input.more > 0 ? ['', `And ${input.more} more on your Today page.`] : []),
    '',
    `Open in Outpost: ${input.todayUrl}`,
    '',
    '-- ',
    'You get this digest because you turned it on in Preferences › Email.',
    `Stop the daily digest: ${input.unsubscribeUrl}`,
  ].join('\n');
  return { subject, text, html };
}

/** The mail that proves an address is the person's: one link, valid for a day. */
export function renderVerificationMail(input: { email: string; url: string }): RenderedMail {
  const subject = 'Confirm your email address for Outpost';
  const html = page(
    subject,
    `<h1 style="margin:0;font-size:18px;font-weight:600;">Confirm your email address</h1>
<p style="margin:12px 0 0;font-size:15px;line-height:22px;">Open this link to receive Outpost’s mail at <strong>${escapeHtml(input.email)}</strong>. It works for 24 hours.</p>${button(input.url, 'Confirm my address')}`,
    'You get this because someone added this address in Outpost’s Preferences › Email. If it was not you, ignore it: nothing is sent until the address is confirmed.',
  );
  const text = [
    'Confirm your email address',
    '',
    `Open this link to receive Outpost’s mail at ${input.email}. It works for 24 hours.`,
    input.url,
    '',
    '-- ',
    'If you did not add this address in Outpost, ignore this mail: nothing is sent until the address is confirmed.',
  ].join('\n');
  return { subject, text, html };
}

/** The test mail of Preferences › Email. */
export function renderTestMail(input: { preferencesUrl: string }): RenderedMail {
  const subject = 'Outpost test email';
  const html = page(
    subject,
    `<h1 style="margin:0;font-size:18px;font-weight:600;">Mail from Outpost reaches you</h1>
<p style="margin:12px 0 0;font-size:15px;line-height:22px;">This is the test you asked for. Notifications and your digest will arrive at this address.</p>${button(input.preferencesUrl, 'Open in Outpost')}`,
    'You get this because you pressed ‘Send a test email’ in Preferences › Email.',
  );
  const text = [
    'Mail from Outpost reaches you.',
    '',
    'This is the test you asked for. Notifications and your digest will arrive at this address.',
    input.preferencesUrl,
  ].join('\n');
  return { subject, text, html };
}

/** Why a notification of this kind was mailed, for the footer. */
export function notificationReason(emailKindLabel: string): string {
  return `You get this because ‘${emailKindLabel}’ is on in Preferences › Email.`;
}
