import { describe, expect, it } from 'vitest';
import { describePasskeyFailure, PASSKEY_SIGN_IN_FAILED, PASSKEYS_UNSUPPORTED } from './passkeyFailure';

const named = (name: string, code?: string) => Object.assign(new Error('x'), { name, code });

describe('describePasskeyFailure', () => {
  it('a cancelled or timed-out prompt says nothing was added or used', () => {
    expect(describePasskeyFailure(named('NotAllowedError'), 'add')).toBe('No passkey was added.');
    expect(describePasskeyFailure(named('AbortError', 'ERROR_CEREMONY_ABORTED'), 'add')).toBe(
      'No passkey was added.',
    );
    expect(describePasskeyFailure(named('NotAllowedError'), 'sign-in')).toMatch(/^No passkey was used\./);
  });

  it('a browser without passkeys is told so, before any prompt', () => {
    for (const purpose of ['add', 'sign-in'] as const) {
      expect(describePasskeyFailure(named(PASSKEYS_UNSUPPORTED), purpose)).toMatch(/cannot use passkeys/);
      expect(describePasskeyFailure(named('NotSupportedError'), purpose)).toMatch(/cannot use passkeys/);
    }
  });

  it('no connection says offline', () => {
    const offline = { status: 0, code: 'NETWORK_ERROR', message: 'Failed to fetch' };
    expect(describePasskeyFailure(offline, 'add')).toBe("You're offline. Connect to add a passkey.");
    expect(describePasskeyFailure(offline, 'sign-in')).toBe(
      "You're offline. Connect to sign in with a passkey.",
    );
  });

  it('an authenticator already added is named as such', () => {
    expect(describePasskeyFailure(named('InvalidStateError'), 'add')).toBe(
      'This passkey is already added to your account.',
    );
  });

  it('the server’s own sentence is shown as it is', () => {
    const refused = { status: 401, message: PASSKEY_SIGN_IN_FAILED };
    expect(describePasskeyFailure(refused, 'sign-in')).toBe(PASSKEY_SIGN_IN_FAILED);
    const tooMany = { status: 422, message: 'You can keep at most 20 passkeys. Remove one first.' };
    expect(describePasskeyFailure(tooMany, 'add')).toBe(tooMany.message);
  });

  it('anything else falls back to one plain sentence', () => {
    expect(describePasskeyFailure(new Error('boom'), 'add')).toBe(
      'The passkey could not be added. Try again.',
    );
    expect(describePasskeyFailure(undefined, 'sign-in')).toBe(PASSKEY_SIGN_IN_FAILED);
  });
});
