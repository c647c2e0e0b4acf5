import { createHmac } from 'node:crypto';
import { safeEqual } from '../../secrets.js';

/**
 * The token of a message's unsubscribe link: its uuid and an HMAC of it, so that a link works without a
 * sign-in, names exactly one message (its recipient, shipment and account), and cannot be made up. It does
 * not expire: an unsubscribe link in an old e-mail must still work (RFC 8058).
 */
export function unsubscribeToken(notificationUuid: string, key: Buffer): string {
  return `${notificationUuid}.${mac(notificationUuid, key)}`;
}

/** The uuid a token names, or null when it is not one of ours. */
export function verifyUnsubscribeToken(token: string, key: Buffer): string | null {
  const match = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  return safeEqual(mac(match[1], key), match[2]) ? match[1] : null;
}

function mac(uuid: string, key: Buffer): string {
  return createHmac('sha256', key).update(`unsubscribe:${uuid}`).digest('base64url');
}
