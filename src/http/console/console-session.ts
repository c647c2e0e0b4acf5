import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { type Caller, parseTokenExpiry, TOKEN_LIFETIME_SECONDS } from '../../domain/auth.service.js';
import { randomToken, type Secrets, safeEqual, sha256Hex } from '../../secrets.js';
import type { ConsoleSession } from '../pages/console/console-layout.js';

/**
 * The session: an access token of the account, issued by the auth service, kept in the cookie sealed
 * (encrypted and authenticated by this server), so that a copied cookie is no bearer token for the API.
 */
export const SESSION_COOKIE = 'waybill_console';
/** What a sealed session says first: no other sealed value of the service opens as a session. */
const SESSION_DOMAIN = 'console-session.';
/** The sign-in form's own token (there is no session yet to bind it to). */
export const SIGN_IN_COOKIE = 'waybill_console_sign_in';

/** A signed-in request: who it is, its token, and the form token of its session. */
export interface SignedIn {
  caller: Caller;
  token: string;
  view: ConsoleSession;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the console's session check for the routes behind it; null elsewhere. */
    consoleSession: SignedIn | null;
  }
}

/** The signed-in session of a console route (they all sit behind the console's session check). */
export function sessionOf(request: FastifyRequest): SignedIn {
  if (!request.consoleSession) throw new Error('route is not behind the console session');
  return request.consoleSession;
}

export function sealSession(secrets: Secrets, token: string): string {
  return secrets.encrypt(`${SESSION_DOMAIN}${token}`);
}

/** The access token inside a session cookie, or null for anything this server did not seal as a session. */
export function openSession(secrets: Secrets, sealed: string): string | null {
  let plain: string;
  try {
    plain = secrets.decrypt(sealed);
  } catch {
    return null;
  }
  return plain.startsWith(SESSION_DOMAIN) ? plain.slice(SESSION_DOMAIN.length) : null;
}

/**
 * Who a session cookie signs in: its token opened, valid, unexpired, of live credentials, and not signed out.
 * The sign-out check reads the database, so a session ended in one process is ended in all of them.
 */
export async function resolveSession(
  context: Pick<AppContext, 'auth' | 'secrets' | 'repos'>,
  sealed: string,
): Promise<{ caller: Caller; token: string } | null> {
  const token = openSession(context.secrets, sealed);
  const caller = token ? await context.auth.authenticate(token) : null;
  if (!token || !caller) return null;
  if (await context.repos.consoleSessions.isRevoked(sha256Hex(token))) return null;
  return { caller, token };
}

/** Ends a session for good: its token is refused by the console until it would have expired anyway. */
export async function revokeSession(
  context: Pick<AppContext, 'repos' | 'clock'>,
  session: { caller: Caller; token: string },
): Promise<void> {
  const expiry =
    parseTokenExpiry(session.token.split('.')[2] ?? '') ?? Math.floor(context.clock.now().getTime() / 1000) + TOKEN_LIFETIME_SECONDS;
  await context.repos.consoleSessions.revoke({
    session_hash: sha256Hex(session.token),
    account_id: session.caller.accountId,
    expires_at: new Date(expiry * 1000).toISOString(),
  });
}

/**
 * Whether a state-changing request says it comes from another site: `Sec-Fetch-Site` other than
 * `same-origin` or `none`, or an `Origin` that is neither the public URL's nor the request's own. `Origin: null`
 * says nothing (browsers send it for the console's own forms, whose pages have `Referrer-Policy: no-referrer`);
 * a request with neither header (older clients, curl) is judged by the form token alone.
 */
export function isCrossSite(request: FastifyRequest, publicOrigin: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return true;
  const origin = request.headers.origin;
  if (origin === undefined || origin === 'null') return false;
  return origin !== publicOrigin && origin !== `${request.protocol}://${request.host}`;
}

/** The value of one cookie of the request, or null. */
export function readCookie(request: FastifyRequest, name: string): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return value === '' ? null : value;
  }
  return null;
}

/** A Set-Cookie value: HttpOnly and SameSite=Strict always, Secure when the request came over HTTPS. */
export function cookie(request: FastifyRequest, name: string, value: string, options: { path: string; maxAgeSeconds: number }): string {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  return `${name}=${value}; Path=${options.path}; Max-Age=${options.maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`;
}

export function clearCookie(request: FastifyRequest, name: string, path: string): string {
  return cookie(request, name, '', { path, maxAgeSeconds: 0 });
}

/**
 * The form token of a session: an HMAC of the session's token under the server's token key, in its own
 * domain (`console-csrf.`, which no access token starts with). Another site can neither read nor compute it.
 */
export function csrfTokenFor(secrets: Secrets, sessionToken: string): string {
  return secrets.sign(secrets.tokenKey, `console-csrf.${sessionToken}`);
}

export function sameToken(given: unknown, expected: string): boolean {
  return typeof given === 'string' && given.length > 0 && safeEqual(given, expected);
}

export function newSignInToken(): string {
  return randomToken(24);
}

export function sendHtml(reply: FastifyReply, status: number, page: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(page);
}
