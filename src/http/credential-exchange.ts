import type { AuthService } from '../domain/auth.service.js';
import type { CredentialBackoff } from './credential-backoff.js';
import type { RateDecision, RateLimiter } from './rate-limit.js';

type IssuedToken = NonNullable<Awaited<ReturnType<AuthService['issueToken']>>>;

/** What a client id and secret get: a token, a refusal, or a wait (with its length in seconds). */
export type Exchange =
  | { outcome: 'issued'; token: IssuedToken; budget: RateDecision }
  | { outcome: 'refused' }
  | { outcome: 'wait'; retryAfterSeconds: number; budget?: RateDecision };

export interface CredentialGate {
  auth: AuthService;
  limiter: RateLimiter;
  backoff: CredentialBackoff;
  perSecond: number;
}

/**
 * Client id and secret → access token, for the token endpoint and the console's sign-in alike. Three budgets,
 * so that nobody who only knows a client id (it is inside every token) can keep its owner out:
 * - a source that has sent wrong secrets for this client id waits (exponentially, capped) before it may try
 *   again, and while it waits its requests are answered without looking at the secret, right or not;
 * - each source has `perSecond` attempts per client id, so parallel guesses cannot outrun that wait;
 * - right secrets alone count against the client id's `perSecond` budget, which failures never touch.
 */
export async function exchangeCredentials(gate: CredentialGate, clientId: string, secret: string, source: string): Promise<Exchange> {
  const standing = await gate.backoff.standing(clientId, source);
  if (standing.waitSeconds > 0) return { outcome: 'wait', retryAfterSeconds: standing.waitSeconds };
  const attempts = await gate.limiter.hit(`attempts:${source}|${clientId}`, gate.perSecond);
  if (!attempts.allowed) return { outcome: 'wait', retryAfterSeconds: attempts.resetSeconds };
  const token = await gate.auth.issueToken(clientId, secret);
  if (!token) {
    await gate.backoff.failed(clientId, source);
    return { outcome: 'refused' };
  }
  if (standing.failures > 0) await gate.backoff.succeeded(clientId, source);
  const budget = await gate.limiter.hit(`client:${clientId}`, gate.perSecond);
  if (!budget.allowed) return { outcome: 'wait', retryAfterSeconds: budget.resetSeconds, budget };
  return { outcome: 'issued', token, budget };
}
