/**
 * The server's event stream as data (GET /api/events, SYNC.md E1): which events it sends, and how long
 * a device takes a `changed` for its own echo. Apart from the queue's protocol (protocol.ts), which
 * only the write path needs: every screen listens to the events.
 */

/** The events GET /api/events sends; `changed` carries no data: the client pulls. */
export const SERVER_EVENTS = {
  changed: 'changed',
  /** `{unread}`: the user's unread notification count changed (or the stream just opened). */
  notification: 'notification',
  /** `{version}`: a fingerprint of the user's mutual contacts (when the stream opens, then on change). */
  mutuals: 'mutuals',
  /** `{reason}`: the stream's session has ended; the stream's last event (SYNC.md E7). */
  signedOut: 'signed_out',
} as const;
export type ServerEvent = (typeof SERVER_EVENTS)[keyof typeof SERVER_EVENTS];

/**
 * E1: how long after this device's own push run a `changed` event is taken for its echo and folded
 * into one pull at the end of the window (never skipped).
 */
export const ECHO_WINDOW_MS = 400;

/**
 * Why a session ended, as its streams' last event says (E7): this device signed out (in another tab),
 * 'Sign out everywhere', another device signed this one out (Preferences › Devices), or the session
 * was found gone (expired, idled out, or ended where no word of it arrived).
 */
export const SIGN_OUT_REASONS = {
  logout: 'logout',
  everywhere: 'everywhere',
  device: 'device',
  expired: 'expired',
} as const;
export type SignOutReason = (typeof SIGN_OUT_REASONS)[keyof typeof SIGN_OUT_REASONS];

const REASONS = new Set<string>(Object.values(SIGN_OUT_REASONS));

/** The reason a `signed_out` event's data names, or null when it is not one of ours. */
export function parseSignOutReason(data: unknown): SignOutReason | null {
  try {
    const { reason } = JSON.parse(String(data)) as { reason?: unknown };
    return typeof reason === 'string' && REASONS.has(reason) ? (reason as SignOutReason) : null;
  } catch {
    return null;
  }
}

/** What the device tells its user when the server ended its session (E7), as a toast's title and text. */
export function signedOutNotice(reason: SignOutReason): { title: string; description: string } {
  const kept = 'Changes not yet sent stay on this device; sign in again to send them.';
  switch (reason) {
    case SIGN_OUT_REASONS.logout:
      return { title: 'You were signed out', description: `You signed out in another tab. ${kept}` };
    case SIGN_OUT_REASONS.everywhere:
      return {
        title: 'You were signed out',
        description: `'Sign out everywhere' was chosen on one of your devices. ${kept}`,
      };
    case SIGN_OUT_REASONS.device:
      return {
        title: 'You were signed out on this device',
        description: `Another of your devices signed this one out. ${kept}`,
      };
    default:
      return { title: 'You were signed out', description: `Your sign-in on this device has ended. ${kept}` };
  }
}
