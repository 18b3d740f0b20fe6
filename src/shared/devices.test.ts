import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeUserAgent, logoutSchema } from './devices';

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
