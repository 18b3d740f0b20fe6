/**
 * A person's display name: what colleagues see in Share, mentions, avatars and notifications.
 */

/** The spec's placeholder: the tutorial signs in with it when the person gives no name. */
export const PLACEHOLDER_NAME = 'Outpost User';

/** The longest name (the sign-in form's limit too). */
export const NAME_MAX = 100;

/**
 * The name a sign-in leaves stored (N12): the placeholder gives way to a real name given at a later
 * sign-in; a name the person chose is kept (it changes only in Preferences), so a name typed on
 * another device's sign-in form never renames anyone by accident.
 */
export function nameAfterSignIn(stored: string, given: string): string {
  const wanted = given.trim();
  if (stored !== PLACEHOLDER_NAME) return stored;
  return wanted === '' ? stored : wanted;
}

/** Adding a phone (Preferences › Phone) to an account that has one: it stays as it is. */
export const PHONE_ALREADY_SET = 'Your account already has a phone number.';

/**
 * Adding a phone another account signs in with. Said only after the code texted to that phone was
 * right (in `otp` mode), so only whoever holds the phone learns the number has an account.
 */
export const PHONE_TAKEN =
  'This phone number belongs to another Outpost account. Sign in with it there, or add another number.';
