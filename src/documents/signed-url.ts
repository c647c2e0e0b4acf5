import { createHmac, timingSafeEqual } from 'node:crypto';

/** Outcome of checking a signed URL. */
export type SignedUrlVerdict = 'ok' | 'expired' | 'invalid';

/** The query parameters that make a path a signed URL. */
export interface SignedUrlQuery {
  /** Unix time in seconds from which the URL no longer works. */
  expires: string;
  /** base64url HMAC-SHA256 of the path and `expires`. */
  signature: string;
}

const EXPIRES = /^[0-9]{1,12}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

function assertPath(path: string): void {
  if (!path.startsWith('/') || /[?#\s]/.test(path))
    throw new Error('signed URL path must start with "/" and have no query, fragment or spaces');
}

function mac(key: Uint8Array, path: string, expires: string): Buffer {
  // the newline cannot occur in a path or in the digits, so no two (path, expires) pairs share a message
  return createHmac('sha256', key).update(`${path}\n${expires}`).digest();
}

/**
 * Signs `path` (e.g. `/v5/shipments/documents/<uuid>/download/`) until `expiresAt`, rounded down to the second.
 * `key` is the service's URL key (Secrets.urlKey).
 */
export function signUrlQuery(path: string, key: Uint8Array, expiresAt: Date): SignedUrlQuery {
  assertPath(path);
  const expires = Math.floor(expiresAt.getTime() / 1000).toString();
  return { expires, signature: mac(key, path, expires).toString('base64url') };
}

/** `path?expires=<unix>&signature=<base64url>`: the download URL's path and query, ready to prefix with the base URL. */
export function signPath(path: string, key: Uint8Array, expiresAt: Date): string {
  const { expires, signature } = signUrlQuery(path, key, expiresAt);
  return `${path}?expires=${expires}&signature=${signature}`;
}

/**
 * Checks the query of a signed URL against its path at `now`. 'invalid' for a missing, malformed or wrong
 * signature (including an `expires` changed after signing), 'expired' for a genuine URL whose time has come.
 * Signatures are compared in constant time.
 */
export function verifySignedUrlQuery(
  path: string,
  query: { expires?: unknown; signature?: unknown },
  key: Uint8Array,
  now: Date,
): SignedUrlVerdict {
  const { expires, signature } = query;
  if (typeof expires !== 'string' || typeof signature !== 'string' || !EXPIRES.test(expires) || !SIGNATURE.test(signature)) {
    return 'invalid';
  }
  if (!path.startsWith('/') || /[?#\s]/.test(path)) return 'invalid';
  // compare the text, not decoded bytes: base64 ignores the low bits of the last character
  const given = Buffer.from(signature, 'ascii');
  const expected = Buffer.from(mac(key, path, expires).toString('base64url'), 'ascii');
  if (!timingSafeEqual(given, expected)) return 'invalid';
  return now.getTime() < Number(expires) * 1000 ? 'ok' : 'expired';
}

/** {@link verifySignedUrlQuery} for a whole URL or `path?query` string, as received. */
export function verifySignedPath(url: string, key: Uint8Array, now: Date): SignedUrlVerdict {
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://signed.invalid');
  } catch {
    return 'invalid';
  }
  const params = parsed.searchParams;
  if (params.getAll('expires').length !== 1 || params.getAll('signature').length !== 1) return 'invalid';
  return verifySignedUrlQuery(
    parsed.pathname,
    { expires: params.get('expires') ?? undefined, signature: params.get('signature') ?? undefined },
    key,
    now,
  );
}
