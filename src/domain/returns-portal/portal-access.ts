import { createHmac, randomBytes } from 'node:crypto';
import { safeEqual } from '../../secrets.js';

/** How long a consumer who found an order may choose what to return before finding it again. */
export const ORDER_ACCESS_MS = 2 * 3_600_000;

/** What an order access token grants: one order of one account, until a time. */
export interface OrderAccess {
  accountId: number;
  orderRowId: number;
  expiresAt: number;
}

/**
 * The token a consumer gets after finding an order (order number and e-mail or postal code): the order it
 * opens, its expiry and an HMAC of both, so that the choice form needs no sign-in and opens that order only.
 */
export function orderAccessToken(access: OrderAccess, key: Buffer): string {
  const payload = `${access.accountId.toString(36)}-${access.orderRowId.toString(36)}-${access.expiresAt.toString(36)}`;
  return `${payload}.${mac(payload, key)}`;
}

/** The access a token grants, or null when it is not one of ours or has expired. */
export function verifyOrderAccessToken(token: string, key: Buffer, now: number): OrderAccess | null {
  const match = /^([0-9a-z]{1,13})-([0-9a-z]{1,13})-([0-9a-z]{1,13})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const payload = `${match[1]}-${match[2]}-${match[3]}`;
  if (!safeEqual(mac(payload, key), match[4])) return null;
  const access = {
    accountId: Number.parseInt(match[1], 36),
    orderRowId: Number.parseInt(match[2], 36),
    expiresAt: Number.parseInt(match[3], 36),
  };
  return access.expiresAt > now ? access : null;
}

/**
 * A new form's identifier: sent back with the form, it becomes the return's `return_id`, so that a form sent
 * twice (a double click, a reload, a replay) makes one return.
 */
export function newFormId(): string {
  return randomBytes(8).toString('hex').toUpperCase();
}

/** The `return_id` of the return a form makes. */
export function portalReturnId(formId: string): string {
  return `RP-${formId}`;
}

export const FORM_ID = /^[0-9A-F]{16}$/;

function mac(payload: string, key: Buffer): string {
  return createHmac('sha256', key).update(`order-access:${payload}`).digest('base64url');
}
