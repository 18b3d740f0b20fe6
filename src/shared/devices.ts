/**
 * The devices a person is signed in on (ARCHITECTURE §4 'Other ways to sign in': GET /api/sessions):
 * the answer's shape, the logout body, and how a device is named from its browser's User-Agent.
 */
import { z } from 'zod';

/** How a session began: the spec's phone flow, single sign-on, or a passkey. */
export const SIGN_IN_METHODS = ['phone', 'oidc', 'passkey'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

/** The longest User-Agent the server keeps (real ones are a few hundred characters). */
export const USER_AGENT_MAX = 512;

export const deviceSessionSchema = z.object({
  id: z.uuid(),
  created_at: z.string(),
  last_seen_at: z.string(),
  user_agent: z.string().nullable(),
  via: z.enum(SIGN_IN_METHODS),
  current: z.boolean(),
});
export type DeviceSession = z.infer<typeof deviceSessionSchema>;

export const deviceSessionsSchema = z.object({ sessions: z.array(deviceSessionSchema) });

/** POST /api/logout's optional body: `{everywhere: true}` ends every session of the person. */
export const logoutSchema = z
  .strictObject({ everywhere: z.boolean({ error: 'everywhere must be true or false.' }).optional() })
  .optional();

const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bCriOS\/|\b(?:Headless)?Chrome\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/**
 * A device's name as a person recognises it ('Firefox on Windows') from its User-Agent; 'Unknown
 * browser' when there is none or it names nothing known (a script, a bot). Never echoes the header.
 */
export function describeUserAgent(userAgent: string | null | undefined): string {
  const ua = userAgent ?? '';
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  if (system) return `A browser on ${system}`;
  return 'Unknown browser';
}

/**
 * How a device signed in, in words: single sign-on by the provider's name, as its button said
 * ('Sign in with {name}'), or 'single sign-on' while that name is not known.
 */
export function signInMethodLabel(via: SignInMethod, providerName?: string | null): string {
  switch (via) {
    case 'phone':
      return 'Signed in with a phone number';
    case 'passkey':
      return 'Signed in with a passkey';
    default:
      return `Signed in with ${providerName?.trim() || 'single sign-on'}`;
  }
}

/** The shortest a device's tag is: 4 hex digits of its public id. */
const TAG_MIN = 4;

/**
 * Each device's name in a list, by id: its browser and system ('Chrome on Linux'), and where two or
 * more share that, a short tag from its public id after it ('Chrome on Linux · 3f9a'), as long as it
 * takes to tell them apart. The public id is random and names no session key, place or address.
 */
export function deviceNames(
  devices: readonly Pick<DeviceSession, 'id' | 'user_agent'>[],
): Map<string, string> {
  const byName = new Map<string, string[]>();
  for (const device of devices) {
    const name = describeUserAgent(device.user_agent);
    byName.set(name, [...(byName.get(name) ?? []), device.id]);
  }
  const names = new Map<string, string>();
  for (const [name, ids] of byName) {
    if (ids.length === 1) {
      names.set(ids[0]!, name);
      continue;
    }
    const hex = ids.map((id) => id.replaceAll('-', '').toLowerCase());
    let length = TAG_MIN;
    while (length < 32 && new Set(hex.map((h) => h.slice(0, length))).size < hex.length) length++;
    for (const [i, id] of ids.entries()) names.set(id, `${name} · ${hex[i]!.slice(0, length)}`);
  }
  return names;
}
