import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { addressAllowed, endpointProblem } from './outboundUrl';

describe('outbound URLs the server accepts (push endpoints, webhooks)', () => {
  it('refuses anything but https, and private, loopback and link-local hosts', () => {
    for (const endpoint of [
      'http://push.example.com/x',
      'ftp://push.example.com/x',
      'not a url',
      'https://127.0.0.1/x',
      'https://10.1.2.3/x',
      'https://192.168.0.1/x',
      'https://172.20.0.1/x',
      'https://169.254.169.254/latest',
      'https://[::1]/x',
      'https://[fe80::1]/x',
      'https://[fd00::1]/x',
      'https://[::ffff:10.0.0.1]/x',
      'https://localhost/x',
      'https://api.localhost/x',
      'https://0.0.0.0/x',
      'https://user:pw@push.example.com/x',
    ])
      expect(endpointProblem(endpoint, false), endpoint).not.toBeNull();
    expect(endpointProblem('https://fcm.googleapis.com/fcm/send/abc', false)).toBeNull();
    expect(endpointProblem('https://8.8.8.8/x', false)).toBeNull();
  });

  it('lets loopback over http through only when the tests ask for it', () => {
    expect(endpointProblem('http://127.0.0.1:9/x', true)).toBeNull();
    expect(endpointProblem('http://10.0.0.1/x', true)).not.toBeNull();
    expect(addressAllowed('127.0.0.1', true)).toBe(true);
    expect(addressAllowed('127.0.0.1', false)).toBe(false);
    expect(addressAllowed('93.184.216.34', false)).toBe(true);
  });
});

/** Endpoints that reach this machine or its network through an IPv6 transition form or a local name. */
const DISGUISED_ENDPOINTS = [
  'https://[::127.0.0.1]/x',
  'https://[::7f00:1]/x',
  'https://[::10.0.0.1]/x',
  'https://[::8.8.8.8]/x',
  'https://[::ffff:127.0.0.1]/x',
  'https://[::ffff:169.254.169.254]/x',
  'https://[::ffff:0:127.0.0.1]/x',
  'https://[64:ff9b::7f00:1]/x',
  'https://[64:ff9b::127.0.0.1]/x',
  'https://[64:ff9b::a9fe:a9fe]/x',
  'https://[64:ff9b:1::8.8.8.8]/x',
  'https://[2002:7f00:1::]/x',
  'https://[2002:a00:1::1]/x',
  'https://[2002:a9fe:a9fe::]/x',
  'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/x',
  'https://[2001:db8::1]/x',
  'https://[100::1]/x',
  'https://[fec0::1]/x',
  'https://localhost./x',
  'https://LOCALHOST./x',
  'https://localhost../x',
  'https://api.localhost./x',
  'https://localhost.localdomain/x',
  'https://LocalHost.LocalDomain./x',
  'https://ip6-localhost/x',
  'https://ip6-loopback/x',
  'https://localhost6/x',
  'https://localhost6.localdomain6/x',
  'https://metadata/x',
  'https://printer.local/x',
  'https://metadata.google.internal/x',
  'https://router.home.arpa/x',
  'https://0x7f.1/x',
  'https://2130706433/x',
  'https://127.1/x',
];

describe('outbound URLs disguised as public ones', () => {
  it.each(DISGUISED_ENDPOINTS)('refuses %s (F8)', (endpoint) => {
    expect(endpointProblem(endpoint, false)).not.toBeNull();
  });

  it('still accepts public addresses written in IPv6 transition forms and public names (F8)', () => {
    for (const endpoint of [
      'https://[64:ff9b::808:808]/x',
      'https://[2002:808:808::1]/x',
      'https://[2a00:1450:4001:80b::200a]/x',
      'https://updates.push.services.mozilla.com/wpush/v2/abc',
      'https://web.push.apple.com/abc',
      'https://fcm.googleapis.com./fcm/send/abc',
    ])
      expect(endpointProblem(endpoint, false), endpoint).toBeNull();
  });

  it('refuses the same addresses when a push service name resolves to them (F8)', () => {
    for (const address of [
      '::7f00:1',
      '::ffff:7f00:1',
      '64:ff9b::7f00:1',
      '64:ff9b::a00:1',
      '2002:7f00:1::',
      '2002:c0a8:101::1',
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
      '2001:db8::1',
      'fe80::1%eth0',
    ])
      expect(addressAllowed(address, false), address).toBe(false);
    expect(addressAllowed('64:ff9b::808:808', false)).toBe(true);
    expect(addressAllowed('2a00:1450:4001:80b::200a', false)).toBe(true);
  });

  it('lets the tests reach loopback by its plain names only, not through a transition form (F8)', () => {
    expect(endpointProblem('http://localhost:9/x', true)).toBeNull();
    expect(endpointProblem('http://[::1]:9/x', true)).toBeNull();
    expect(addressAllowed('::ffff:127.0.0.1', true)).toBe(true);
    expect(addressAllowed('64:ff9b::7f00:1', true)).toBe(false);
    expect(addressAllowed('2002:7f00:1::', true)).toBe(false);
    expect(endpointProblem('https://[64:ff9b::7f00:1]/x', true)).not.toBeNull();
  });
});

/** An IPv4 address in one of ipaddr.js's named ranges. */
const v4In = (ranges: readonly string[]) =>
  fc
    .tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255))
    .map((octets) => new ipaddr.IPv4(octets))
    .filter((a) => ranges.includes(a.range()));
const PRIVATE_RANGES = ['private', 'loopback', 'linkLocal', 'unspecified', 'multicast', 'carrierGradeNat'];
const hex = (a: ipaddr.IPv4) => {
  const [w, x, y, z] = a.octets as [number, number, number, number];
  return [((w << 8) | x).toString(16), ((y << 8) | z).toString(16)] as const;
};
/** The forms an IPv6 address carries an IPv4 one in, each as ipaddr.js names its range. */
const carriers = (a: ipaddr.IPv4): [string, string][] => {
  const [high, low] = hex(a);
  const [notHigh, notLow] = hex(new ipaddr.IPv4(a.octets.map((o) => o ^ 255)));
  return [
    ['ipv4Mapped', `::ffff:${a}`],
    ['rfc6145', `::ffff:0:${a}`],
    ['rfc6052', `64:ff9b::${high}:${low}`],
    ['6to4', `2002:${high}:${low}::1`],
    ['teredo', `2001:0:${high}:${low}::${notHigh}:${notLow}`],
    ['teredo', `2001:0:4136:e378:8000:63bf:${notHigh}:${notLow}`],
  ];
};
/** An IPv6 address inside `prefix/bits`, the rest random. */
const v6In = (prefix: string, bits: number) =>
  fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 }).map((parts) => {
    const base = ipaddr.IPv6.parse(prefix).parts;
    const mixed = parts.map((part, i) => {
      const kept = Math.max(0, Math.min(16, bits - i * 16));
      const mask = kept === 0 ? 0 : (0xffff << (16 - kept)) & 0xffff;
      return (base[i]! & mask) | (part & ~mask & 0xffff);
    });
    return new ipaddr.IPv6(mixed).toString();
  });

describe('the outbound-URL guard over ipaddr.js ranges (properties)', () => {
  it('refuses a private, loopback, link-local, unspecified or multicast IPv4 address in every transition form', () => {
    fc.assert(
      fc.property(v4In(PRIVATE_RANGES), (a) => {
        expect(addressAllowed(a.toString(), false)).toBe(false);
        for (const [range, carrier] of carriers(a)) {
          expect(ipaddr.parse(carrier).range(), carrier).toBe(range);
          expect(addressAllowed(carrier, false), carrier).toBe(false);
          expect(endpointProblem(`https://[${carrier}]/x`, false), carrier).not.toBeNull();
        }
      }),
    );
  });

  it('accepts a public IPv4 address as itself and in every transition form', () => {
    fc.assert(
      fc.property(v4In(['unicast']), (a) => {
        expect(addressAllowed(a.toString(), false)).toBe(true);
        for (const [, carrier] of carriers(a)) {
          // Teredo's client is the inverted tail, public too only when its inverse is.
          const client = new ipaddr.IPv4(a.octets.map((o) => o ^ 255));
          if (carrier.startsWith('2001:0:') && client.range() !== 'unicast') continue;
          expect(addressAllowed(carrier, false), carrier).toBe(true);
        }
      }),
    );
  });

  it('refuses unique local, link-local, multicast and unspecified IPv6 addresses, loopback allowed or not', () => {
    const ranges: [string, string, number][] = [
      ['uniqueLocal', 'fc00::', 7],
      ['linkLocal', 'fe80::', 10],
      ['multicast', 'ff00::', 8],
      ['unspecified', '::', 128],
      ['rfc6052', '64:ff9b:1::', 48],
    ];
    for (const [range, prefix, bits] of ranges)
      fc.assert(
        fc.property(v6In(prefix, bits), (address) => {
          expect(ipaddr.parse(address).range(), address).toBe(range);
          expect(addressAllowed(address, false), address).toBe(false);
          expect(addressAllowed(address, true), address).toBe(false);
          expect(endpointProblem(`https://[${address}]/x`, true), address).not.toBeNull();
        }),
      );
  });

  it('lets loopback through only as itself when the tests ask for it', () => {
    fc.assert(
      fc.property(v4In(['loopback']), (a) => {
        expect(addressAllowed(a.toString(), true)).toBe(true);
        expect(addressAllowed(`::ffff:${a}`, true)).toBe(true);
        for (const [range, carrier] of carriers(a))
          if (range !== 'ipv4Mapped') expect(addressAllowed(carrier, true), carrier).toBe(false);
      }),
    );
  });

  it('accepts global unicast IPv6 outside the transition prefixes', () => {
    fc.assert(
      fc.property(v6In('2400::', 6), (address) => {
        expect(ipaddr.parse(address).range()).toBe('unicast');
        expect(addressAllowed(address, false), address).toBe(true);
      }),
    );
  });
});
