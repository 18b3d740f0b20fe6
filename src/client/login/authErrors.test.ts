import { describe, expect, it } from 'vitest';
import { ApiError } from '../data/net/apiClient';
import { describeAuthFailure } from './authErrors';

describe('describeAuthFailure', () => {
  it("reads a 429 as rate-limited with the server's message", () => {
    const error = new ApiError(
      'Too many code requests for this phone. Please wait 60 seconds and try again.',
      429,
    );
    expect(describeAuthFailure(error)).toEqual({ kind: 'rate-limited', message: error.message });
  });

  it('reads a 422 about the code as a bad code and picks out the tries left', () => {
    const error = new ApiError('The code is not correct. 4 tries left.', 422, {
      errors: { code: ['The code is not correct. 4 tries left.'] },
    });
    expect(describeAuthFailure(error)).toEqual({
      kind: 'bad-code',
      message: 'The code is not correct. 4 tries left.',
      triesLeft: '4 tries left.',
    });
    const expired = new ApiError('The code expired or was never sent.', 422, { errors: { code: ['x'] } });
    expect(describeAuthFailure(expired)).toMatchObject({ kind: 'bad-code', triesLeft: null });
  });

  it('reads a 422 about the phone as a bad phone, and everything else as failed', () => {
    const phone = new ApiError('The phone must be a valid phone number.', 422, { errors: { phone: ['x'] } });
    expect(describeAuthFailure(phone).kind).toBe('bad-phone');
    expect(describeAuthFailure(new ApiError('Network error', 0, null, 'NETWORK_ERROR')).kind).toBe('failed');
    expect(describeAuthFailure(new ApiError('Boom', 503)).kind).toBe('failed');
    expect(describeAuthFailure(new Error('down')).kind).toBe('failed');
    expect(describeAuthFailure(null)).toEqual({ kind: 'failed', message: null });
  });
});
