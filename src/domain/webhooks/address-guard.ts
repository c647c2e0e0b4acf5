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
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['fd00:ec2::', 32],
] as const) {
  blocked.addSubnet(address, prefix, 'ipv6');
}

export function isBlockedAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return true;
  if (family === 6) {
    // IPv4-mapped IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it carries.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return blocked.check(mapped[1], 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return blocked.check(address, 'ipv4');
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

/**
 * A `lookup` for outgoing connections that refuses blocked addresses: the address checked is the address
 * connected to, so a DNS answer cannot change between the check and the connection.
 */
export function guardedLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: false }, (error, address, family) => {
      if (error) return callback(error, '', 0);
      if (!allowPrivate && isBlockedAddress(address as string)) {
        return callback(
          Object.assign(new Error(`refused: ${hostname} resolves to a private or reserved address`), { code: 'EBLOCKED' }),
          '',
          0,
        );
      }
      callback(null, address as string, family as number);
    });
  };
}
