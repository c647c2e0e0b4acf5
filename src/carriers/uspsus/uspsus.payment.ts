/**
 * Payments 3.0 "Set Payment Account Information" (`POST /payments/v3/payment-authorization`), which the Labels
 * API names as the way to authorize an EPS or permit account: the roles of the labels (who pays, who owns
 * them) → a `paymentAuthorizationToken`, sent with every label call as `X-Payment-Authorization-Token`. Pure.
 */

export const PAYMENT_PATH = '/payments/v3/payment-authorization';
export const PAYMENT_HEADER = 'x-payment-authorization-token';

/**
 * A token's lifetime when it does not say: 8 hours, as integrators report it (USPS's documents give none). A
 * JWT's own `exp` is used when the token has one.
 */
export const DEFAULT_PAYMENT_TOKEN_SECONDS = 8 * 3600;

/** The request: the PAYER (CRID, MID, the EPS account or permit) and the LABEL_OWNER (the same CRID and MID). */
export function paymentRequest(settings: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const crid = String(settings.crid ?? '');
  const mid = String(settings.mid ?? '');
  const manifest = typeof settings.manifest_mid === 'string' && settings.manifest_mid ? settings.manifest_mid : mid;
  const type = settings.account_type === 'PERMIT' ? 'PERMIT' : 'EPS';
  return {
    roles: [
      {
        roleName: 'PAYER',
        CRID: crid,
        MID: mid,
        manifestMID: manifest,
        accountType: type,
        accountNumber: String(settings.account_number ?? ''),
        ...(type === 'PERMIT' ? { permitZIP: String(settings.permit_zip ?? '') } : {}),
      },
      { roleName: 'LABEL_OWNER', CRID: crid, MID: mid, manifestMID: manifest },
    ],
  };
}

/** Seconds until a JWT's `exp` (null when the token is not a JWT with one). */
function jwtSecondsLeft(token: string, nowMs: number): number | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof claims.exp === 'number' && Number.isFinite(claims.exp) ? Math.floor(claims.exp - nowMs / 1000) : null;
  } catch {
    return null;
  }
}

/** The token and how long it lasts, from the answer; null when the answer has no token. */
export function readPaymentAnswer(body: unknown, nowMs: number): { token: string; seconds: number } | null {
  const token = (body as { paymentAuthorizationToken?: unknown } | null)?.paymentAuthorizationToken;
  if (typeof token !== 'string' || token.trim() === '') return null;
  const left = jwtSecondsLeft(token, nowMs);
  return { token, seconds: left !== null && left > 0 ? left : DEFAULT_PAYMENT_TOKEN_SECONDS };
}
