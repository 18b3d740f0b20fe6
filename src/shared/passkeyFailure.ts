/**
 * The sentences a failed passkey call shows (ARCHITECTURE §4 'Other ways to sign in'), free of zod so
 * the first screen's commands may name them.
 */

/** The longest name a passkey may have. */
export const PASSKEY_NAME_MAX = 60;

/** The one answer for every failed passkey sign-in: it never says whether the passkey exists. */
export const PASSKEY_SIGN_IN_FAILED =
  'Sign-in with this passkey did not work. Try again or sign in another way.';

/** What the person asked for when a passkey call failed: adding one, or signing in with one. */
export type PasskeyPurpose = 'add' | 'sign-in';

/** The name of the error a browser without WebAuthn raises before any prompt (the client's own). */
export const PASSKEYS_UNSUPPORTED = 'PasskeysUnsupported';

/**
 * The one sentence a failed passkey call shows: a cancelled or timed-out prompt, a browser without
 * passkeys, no connection, an authenticator already added, else the server's own sentence. Duck-typed
 * on `{name, code, status, message}` so it reads both WebAuthn errors and the client's ApiError.
 */
export function describePasskeyFailure(error: unknown, purpose: PasskeyPurpose): string {
  const { name, code, status, message } = (typeof error === 'object' && error !== null ? error : {}) as {
    name?: unknown;
    code?: unknown;
    status?: unknown;
    message?: unknown;
  };
  if (name === PASSKEYS_UNSUPPORTED || name === 'NotSupportedError') {
    return 'This browser cannot use passkeys. Try another browser, or sign in with your phone.';
  }
  if (code === 'NETWORK_ERROR' || status === 0) {
    return purpose === 'add'
      ? "You're offline. Connect to add a passkey."
      : "You're offline. Connect to sign in with a passkey.";
  }
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED') {
    return purpose === 'add'
      ? 'No passkey was added.'
      : 'No passkey was used. Try again or sign in another way.';
  }
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError') {
    return 'This passkey is already added to your account.';
  }
  if (typeof status === 'number' && typeof message === 'string' && message !== '') return message;
  return purpose === 'add' ? 'The passkey could not be added. Try again.' : PASSKEY_SIGN_IN_FAILED;
}
