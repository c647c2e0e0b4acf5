import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../../domain/auth.service.js';
import { randomToken, type Secrets, safeEqual } from '../../secrets.js';
import type { ConsoleSession } from '../pages/console/console-layout.js';

/** The session: an access token of the account, issued by the auth service and signed by this server. */
export const SESSION_COOKIE = 'waybill_console';
/** The sign-in form's own token (there is no session yet to bind it to). */
export const SIGN_IN_COOKIE = 'waybill_console_sign_in';

/** A signed-in request: who it is, its token, and the form token of its session. */
export interface SignedIn {
  caller: Caller;
  token: string;
  view: ConsoleSession;
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
