import { createHmac } from 'node:crypto';
import { safeEqual } from '../../secrets.js';

/**
 * The token of a return's status page in the returns portal: the return's uuid and an HMAC of it, so that the
 * link in the confirmation and in e-mails works without a sign-in, names exactly one return, and cannot be made
 * up. It does not expire: a consumer follows a return until the refund, weeks later.
 */
export function returnStatusToken(returnUuid: string, key: Buffer): string {
  return `${returnUuid}.${mac(returnUuid, key)}`;
}

/** The return uuid a status token names, or null when it is not one of ours. */
export function verifyReturnStatusToken(token: string, key: Buffer): string | null {
  const match = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  return safeEqual(mac(match[1], key), match[2]) ? match[1] : null;
}

/** The status page of a return, in the portal of the account's reference. */
export function returnStatusUrl(publicUrl: string, portalReference: string, returnUuid: string, key: Buffer): string {
  return `${publicUrl}/returns/${portalReference}/status/${returnStatusToken(returnUuid, key)}`;
}

function mac(uuid: string, key: Buffer): string {
  return createHmac('sha256', key).update(`return-status:${uuid}`).digest('base64url');
}
