import dns from 'node:dns';
import net from 'node:net';

/** Addresses a webhook must never reach: this machine, private networks, link-local and cloud metadata. */
const blocked = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  // IPv4-compatible (deprecated; `::` and `::1` included), IPv4-translated (SIIT), local-use NAT64 (whose
  // embedding depends on the operator's prefix length) and Teredo (the IPv4 inside is obfuscated): refused
  // outright rather than decoded.
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b:1::', 48],
  ['2001::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['fd00:ec2::', 32],
] as const) {
  blocked.addSubnet(address, prefix, 'ipv6');
}

/**
 * True for an address a webhook must not reach. IPv6 forms that carry an IPv4 address the packet ends up at
 * (IPv4-mapped `::ffff:0:0/96`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged as that IPv4 address:
 * a public one stays allowed (an IPv6-only network reaches every IPv4-only host through NAT64), a private
 * one is refused. Anything that is not an IP address is refused.
 */
export function isBlockedAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const groups = ipv6Groups(address);
  const carried = carriedIpv4(groups);
  if (carried !== null) return blocked.check(carried, 'ipv4');
  return blocked.check(groups.map((g) => g.toString(16)).join(':'), 'ipv6');
}

/** The eight 16-bit groups of a valid IPv6 address (any spelling: `::`, a dotted IPv4 tail, a zone). */
function ipv6Groups(address: string): number[] {
  const text = address
    .split('%')[0]
    .replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_all, a, b, c, d) => `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`);
  const [head, tail] = text.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => Number.parseInt(group, 16)) : []);
  const left = parse(head);
  if (tail === undefined) return left;
  const right = parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The IPv4 address an IPv4-mapped, NAT64 (well-known prefix) or 6to4 address leads to; null for others. */
function carriedIpv4(g: number[]): string | null {
  const zero = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  const ipv4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  if (zero(0, 5) && g[5] === 0xffff) return ipv4(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return ipv4(g[6], g[7]);
  if (g[0] === 0x2002) return ipv4(g[1], g[2]);
  return null;
}

/** Why a webhook URL is refused, or null when it is acceptable. Resolves the host now. */
export async function refuseWebhookUrl(raw: string, allowPrivate: boolean): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Enter an absolute URL.';
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return 'Webhook URLs must use HTTPS.';
  if (url.username || url.password) return 'Webhook URLs must not carry credentials.';
  // Port 0 names no port a server listens on: nothing sent there could ever arrive.
  if (url.port === '0') return 'Enter a port from 1 to 65535, or none.';
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = net.isIP(host) ? [host] : (await dns.promises.lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return `The host "${host}" does not resolve.`;
  }
  if (addresses.length === 0 || addresses.some(isBlockedAddress)) return `The host "${host}" resolves to a private or reserved address.`;
  return null;
}

/**
 * Checked at each delivery, before connecting: the scheme, and a host written as an IP address (which
 * connects without a lookup, so the guarded lookup below never sees it). Null when the URL may be used.
 */
export function refuseAtDelivery(raw: string, allowPrivate: boolean): string | null {
  if (allowPrivate) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not an absolute URL';
  }
  if (url.protocol !== 'https:') return 'webhook URLs must use HTTPS';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && isBlockedAddress(host)) return `refused: ${host} is a private or reserved address`;
  return null;
}

/** Every address a host name resolves to (with the caller's options, e.g. a family). */
export type ResolveAll = (
  hostname: string,
  options: dns.LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

const resolveAll: ResolveAll = (hostname, options, callback) =>
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => callback(error, addresses ?? []));

/**
 * A `lookup` for outgoing connections that refuses blocked addresses: the addresses checked are the ones
 * the connection may use, so a DNS answer cannot change between the check and the connection. It answers
 * both forms a caller asks for: a list (`all: true`, as Node's connect does when it tries the families in
 * turn) or one address. A name is refused when ANY of its addresses is blocked, not just filtered: a name
 * that mixes public and private answers is how DNS rebinding gets a private address tried.
 */
export function guardedLookup(allowPrivate: boolean, resolve: ResolveAll = resolveAll): net.LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      if (addresses.length === 0) {
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      }
      if (!allowPrivate && addresses.some((a) => isBlockedAddress(a.address))) {
        return callback(
          Object.assign(new Error(`refused: ${hostname} resolves to a private or reserved address`), { code: 'EBLOCKED' }),
          '',
          0,
        );
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
