import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerPushToken, type PushedRequest } from '../push.js';

/**
 * 17TRACK webhooks: one URL per 17TRACK account, set in its dashboard, to which 17TRACK posts `{ event, data }`
 * with a `sign` header: the SHA-256 (hex) of the raw body, `/`, and the account's key. 17TRACK sends no header
 * Waybill can choose, so the configuration's push token rides in the URL's query (`?push_token=`).
 * docs/carriers/trk17t.md says what is documented and what is not.
 */

/** The query parameter of the hook URL that carries the push token. */
export const PUSH_TOKEN_PARAM = 'push_token';

/** The header 17TRACK signs a push in. */
export const SIGN_HEADER = 'sign';

/** The signature 17TRACK sends for a body and a key: `sha256(body + "/" + key)`, hexadecimal. */
export function signOf(rawBody: Buffer | string, key: string): string {
  return createHash('sha256')
    .update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody)
    .update(`/${key}`, 'utf8')
    .digest('hex');
}

function headerValue(headers: PushedRequest['headers'], name: string): string | null {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first.trim() !== '' ? first.trim() : null;
}

/** Whether the request carries 17TRACK's signature of its raw body with this key (compared in constant time). */
export function verifySign(request: PushedRequest, key: string): boolean {
  const given = headerValue(request.headers, SIGN_HEADER)?.toLowerCase() ?? null;
  if (!given || !/^[0-9a-f]{64}$/.test(given) || key === '') return false;
  const expected = signOf(request.rawBody, key);
  return timingSafeEqual(Buffer.from(given, 'ascii'), Buffer.from(expected, 'ascii'));
}

/** The push token: the hook URL's `push_token` parameter, else `Authorization: Bearer` (a proxy may move it there). */
export function trk17tPushToken(headers: PushedRequest['headers'], request?: PushedRequest): string | null {
  const fromQuery = request?.query?.[PUSH_TOKEN_PARAM];
  const token = Array.isArray(fromQuery) ? fromQuery[0] : fromQuery;
  if (typeof token === 'string' && token.trim() !== '') return token.trim();
  return bearerPushToken(headers);
}
