import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The outbound-URL guard: where the server may send a request it was given the address of (a Web Push
 * endpoint, a webhook URL). The server must not become a way into internal hosts, so private,
 * loopback, link-local and documentation addresses are refused, also when an IPv6 transition form
 * carries them, and so are local names. Addresses are read by ipaddr.js, never parsed by hand.
 */

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];
const cidrs = (list: readonly string[]): Cidr[] => list.map((text) => ipaddr.parseCIDR(text));

/** IPv4 ranges no outbound request may reach. */
const PRIVATE_V4 = cidrs([
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  // Multicast and the reserved class E, broadcast included.
  '224.0.0.0/3',
]);

/** IPv6 ranges no outbound request may reach, whatever IPv4 address they may carry. */
const PRIVATE_V6 = cidrs([
  // IPv4-compatible (deprecated, never routed), with :: and ::1 in it.
  '::/96',
  // NAT64 for local use (RFC 8215): it translates to whatever the local network chooses.
  '64:ff9b:1::/48',
  '100::/64',
  '2001:db8::/32',
  'fc00::/7',
  'fe80::/10',
  'fec0::/10',
  'ff00::/8',
]);

const within = (address: ipaddr.IPv4 | ipaddr.IPv6, ranges: readonly Cidr[]) =>
  ranges.some((range) => range[0].kind() === address.kind() && address.match(range));

/** A strict IP literal (no brackets, no zone) as ipaddr.js reads it, or null for anything else. */
function parsed(raw: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const address = raw.replace(/^\[|\]$/g, '').split('%')[0] ?? '';
  // node:net's strict check first: ipaddr.js also reads shorthands ('127.1', '0x7f.1') as IPv4.
  return isIP(address) === 0 ? null : ipaddr.parse(address);
}

/**
 * The IPv4 addresses an IPv6 address carries and is delivered to: IPv4-mapped and -translated
 * (`::ffff:a.b.c.d`, `::ffff:0:a.b.c.d`), NAT64's well-known prefix (`64:ff9b::a.b.c.d`), 6to4
 * (`2002:AABB:CCDD::`) and Teredo (`2001:0:server:…:~client`). `[64:ff9b::7f00:1]` is 127.0.0.1 to
 * a host behind NAT64, and `[2002:7f00:1::]` to one with a 6to4 relay, whatever the IPv6 rules say.
 */
export function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const p = address.parts;
  const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]);
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return [v4(p[6]!, p[7]!)];
    case 'rfc6052':
      // The well-known /96 only: the local-use /48 is refused outright (PRIVATE_V6).
      return p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0 ? [v4(p[6]!, p[7]!)] : [];
    case '6to4':
      return [v4(p[1]!, p[2]!)];
    case 'teredo':
      return [v4(p[2]!, p[3]!), v4(p[6]! ^ 0xffff, p[7]! ^ 0xffff)];
    default:
      return [];
  }
}

/** Whether an address is this machine's loopback as itself: 127.x, ::1, or ::ffff:127.x (dual stack). */
function isLoopback(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() === 'ipv4') return address.range() === 'loopback';
  const v6 = address as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === 'loopback';
  return v6.range() === 'loopback';
}

/**
 * Whether an outbound request may go to this address: public ones, and loopback when the tests allow
 * it. Loopback is let through only as itself (127.x, ::1, or ::ffff:127.x as a dual-stack socket
 * shows IPv4), never by way of a transition form.
 */
export function addressAllowed(raw: string, allowLoopback: boolean): boolean {
  const address = parsed(raw);
  if (address === null) return false;
  if (allowLoopback && isLoopback(address)) return true;
  if (address.kind() === 'ipv4') return !within(address, PRIVATE_V4);
  const v6 = address as ipaddr.IPv6;
  if (within(v6, PRIVATE_V6)) return false;
  return embeddedIpv4(v6).every((v4) => !within(v4, PRIVATE_V4));
}

/** Names every resolver answers with this machine's own address (RFC 6761, /etc/hosts of Linux). */
const LOOPBACK_NAMES = new Set([
  'localhost',
  'localhost.localdomain',
  'localhost6',
  'localhost6.localdomain6',
  'ip6-localhost',
  'ip6-loopback',
]);
/** Suffixes only a local network resolves (mDNS, cloud metadata, home routers). */
const LOCAL_SUFFIXES = ['.localhost', '.localdomain', '.local', '.internal', '.home.arpa'];

/** Whether a host name (lower case, no trailing dot) names this machine. */
function isLoopbackName(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || host.endsWith('.localhost');
}

/**
 * A DNS lookup for outbound requests (Web Push, webhooks) that connects only to the addresses it
 * checked: every address the name resolves to must be public (addressAllowed), else the request
 * fails with `refusal`. Checked at connect time, so a name that re-resolves to a private address
 * after the endpoint was accepted (DNS rebinding) is refused.
 */
export function publicOnlyLookup(allowLoopback: boolean, refusal: string) {
  return (
    hostname: string,
    lookupOptions: { all?: boolean },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const allowed = addresses.filter((a) => addressAllowed(a.address, allowLoopback));
      if (allowed.length === 0 || allowed.length !== addresses.length) {
        return callback(new Error(refusal), []);
      }
      if (lookupOptions.all) return callback(null, allowed);
      const first = allowed[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/**
 * Why an outbound URL (a push endpoint, a webhook) is refused, or null when it is acceptable: an
 * https URL whose host is not a private, loopback or link-local address (also inside an IPv6
 * transition form) or a local name (names are checked again when sending, against the addresses they
 * resolve to). `allowLoopback` lets http and loopback through for tests.
 */
export function endpointProblem(endpoint: string, allowLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'The endpoint must be an https URL.';
  }
  // 'LOCALHOST.' is localhost: a trailing dot only says the name is already fully qualified.
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.+$/, '');
  const ip = parsed(host);
  const loopbackHost = ip ? isLoopback(ip) : isLoopbackName(host);
  if (url.protocol !== 'https:' && !(allowLoopback && url.protocol === 'http:' && loopbackHost)) {
    return 'The endpoint must be an https URL.';
  }
  if (url.username || url.password) return 'The endpoint must not carry a user name or password.';
  if (ip) {
    return addressAllowed(host, allowLoopback)
      ? null
      : 'The endpoint must not point at a private, loopback or link-local address.';
  }
  if (isLoopbackName(host)) {
    return allowLoopback ? null : 'The endpoint must not point at this server or its network.';
  }
  // A name without a dot is completed by the server's resolver search list: an internal host.
  if (!host.includes('.') || LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) {
    return 'The endpoint must not point at this server or its network.';
  }
  return null;
}
