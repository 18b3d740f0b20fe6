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
} as const;
export type ServerEvent = (typeof SERVER_EVENTS)[keyof typeof SERVER_EVENTS];

/**
 * E1: how long after this device's own push run a `changed` event is taken for its echo and folded
 * into one pull at the end of the window (never skipped).
 */
export const ECHO_WINDOW_MS = 400;
