import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeUserAgent, deviceNames, logoutSchema, signInMethodLabel } from './devices';

const UAS: [string, string][] = [
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'Chrome on Windows',
  ],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
    'Edge on Windows',
  ],
  ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox on Linux'],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
    'Safari on macOS',
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    'Safari on iPhone',
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
    'Chrome on iPhone',
  ],
  [
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
    'Samsung Internet on Android',
  ],
  [
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
    'Chrome on Linux',
  ],
  ['curl/8.5.0', 'Unknown browser'],
];

describe('describeUserAgent', () => {
  it.each(UAS)('names %s as “%s”', (ua, name) => {
    expect(describeUserAgent(ua)).toBe(name);
  });

  it('names a missing header an unknown browser', () => {
    expect(describeUserAgent(null)).toBe('Unknown browser');
    expect(describeUserAgent('')).toBe('Unknown browser');
  });

  it('never echoes what a client sent: every answer is one of a fixed set of names', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (ua) => {
        const name = describeUserAgent(ua);
        expect(name).toMatch(
          /^(?:(?:Edge|Opera|Samsung Internet|Firefox|Chrome|Safari)(?: on (?:iPhone|iPad|Android|ChromeOS|Windows|macOS|Linux))?|A browser on (?:iPhone|iPad|Android|ChromeOS|Windows|macOS|Linux)|Unknown browser)$/,
        );
      }),
    );
  });
});

describe('logoutSchema', () => {
  it('takes no body, an empty one, or everywhere', () => {
    expect(logoutSchema.parse(undefined)).toBeUndefined();
    expect(logoutSchema.parse({})).toEqual({});
    expect(logoutSchema.parse({ everywhere: true })).toEqual({ everywhere: true });
  });

  it('refuses anything else', () => {
    expect(logoutSchema.safeParse({ everywhere: 'yes' }).success).toBe(false);
    expect(logoutSchema.safeParse({ all: true }).success).toBe(false);
  });
});

describe('deviceNames', () => {
  const CHROME_LINUX =
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
  const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

  it('tells two devices with the same browser apart by a short tag of their public ids, and leaves a lone one plain', () => {
    const names = deviceNames([
      { id: '3f9a0c2e-1111-4111-8111-111111111111', user_agent: CHROME_LINUX },
      { id: '7b21d4e0-2222-4222-8222-222222222222', user_agent: CHROME_LINUX },
      { id: '9c00aaaa-3333-4333-8333-333333333333', user_agent: FIREFOX },
    ]);
    expect([...names.values()]).toEqual([
      'Chrome on Linux · 3f9a',
      'Chrome on Linux · 7b21',
      'Firefox on Linux',
    ]);
  });

  it('lengthens the tag until every name in the list differs', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.uuid(), { minLength: 2, maxLength: 30 }), (ids) => {
        const names = deviceNames(ids.map((id) => ({ id, user_agent: CHROME_LINUX })));
        expect(new Set(names.values()).size).toBe(ids.length);
      }),
    );
    const names = deviceNames([
      { id: 'abcd1234-0000-4000-8000-000000000000', user_agent: null },
      { id: 'abcd5678-0000-4000-8000-000000000000', user_agent: null },
    ]);
    expect([...names.values()]).toEqual(['Unknown browser · abcd1', 'Unknown browser · abcd5']);
  });
});

describe('signInMethodLabel', () => {
  it('names single sign-on by its provider, as the sign-in button did', () => {
    expect(signInMethodLabel('oidc', 'Acme ID')).toBe('Signed in with Acme ID');
    expect(signInMethodLabel('oidc', null)).toBe('Signed in with single sign-on');
    expect(signInMethodLabel('oidc', '  ')).toBe('Signed in with single sign-on');
    expect(signInMethodLabel('phone', 'Acme ID')).toBe('Signed in with a phone number');
    expect(signInMethodLabel('passkey')).toBe('Signed in with a passkey');
  });
});
