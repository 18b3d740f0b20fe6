import { NOTICES } from '../onboarding/steps';

/**
 * What a failed sign-in call means for the screen, free of React so both sign-in screens (and their
 * tests) read server answers the same way. Duck-typed on `{status, message, data}` so it takes the
 * data layer's ApiError without depending on its class.
 */
export type AuthFailure =
  /** 429: too many codes, wrong codes or sign-ins; `message` is the server's and names the wait. */
  | { kind: 'rate-limited'; message: string }
  /** 422 about the code (wrong, expired, missing); `message` is the server's ('… 4 tries left.'). */
  | { kind: 'bad-code'; message: string; triesLeft: string | null }
  /** 422 about the phone. */
  | { kind: 'bad-phone'; message: string }
  /** Anything else: the network, a 5xx, a 422 about the name. */
  | { kind: 'failed'; message: string | null };

interface ErrorLike {
  status?: unknown;
  message?: unknown;
  data?: unknown;
}

function fieldErrors(data: unknown): Record<string, unknown> {
  if (typeof data !== 'object' || data === null) return {};
  const errors = (data as { errors?: unknown }).errors;
  return typeof errors === 'object' && errors !== null ? (errors as Record<string, unknown>) : {};
}

export function describeAuthFailure(error: unknown): AuthFailure {
  if (typeof error !== 'object' || error === null) return { kind: 'failed', message: null };
  const { status, message: raw, data } = error as ErrorLike;
  const message = typeof raw === 'string' && raw !== '' ? raw : null;
  if (status === 429) {
    return { kind: 'rate-limited', message: message ?? 'Too many attempts. Please wait and try again.' };
  }
  if (status === 422) {
    const errors = fieldErrors(data);
    if ('code' in errors) {
      const text = message ?? 'The code is not correct.';
      return {
        kind: 'bad-code',
        message: text,
        triesLeft: /\d+ tr(?:y|ies) left\.?/.exec(text)?.[0] ?? null,
      };
    }
    if ('phone' in errors) return { kind: 'bad-phone', message: message ?? 'Invalid phone number' };
  }
  return { kind: 'failed', message };
}

/** The toast titles the issue names: sign-in and code calls say this on a 429. */
export const TOO_MANY_ATTEMPTS = 'Too many attempts';

/**
 * The toast both sign-in screens show for a failure they explain: a 429 says 'Too many attempts' with
 * the server's wait, a wrong code says the spec's 'Invalid code' with the tries left. Null for the
 * rest, which each screen words in its own way (the spec's texts differ between them).
 */
export function authFailureToast(failure: AuthFailure): { title: string; description: string } | null {
  if (failure.kind === 'rate-limited') return { title: TOO_MANY_ATTEMPTS, description: failure.message };
  if (failure.kind === 'bad-code') {
    const { title, description } = NOTICES.invalidCode;
    return { title, description: failure.triesLeft ? `${description}. ${failure.triesLeft}` : description };
  }
  return null;
}
