import type { CarrierError } from '../carrier.js';
import { type CallAuth, type CarrierCall, type CarrierResponse, heldBack } from '../sdk/http.js';
import type { CarrierLimits } from '../sdk/limits.js';
import type { CarrierToolkit } from '../sdk/toolkit.js';

/**
 * Whether a failed call reached DHL: `no` (held back, no token, no connection: nothing was sent), `answered`
 * (DHL said no: an HTTP error status), or `unknown` (sent, and no answer came: DHL may have acted on it).
 */
export type Reach = 'no' | 'answered' | 'unknown';

export type Sent = { response: CarrierResponse } | { error: CarrierError; reach: Reach };

/**
 * The SDK transport's failures are data with a message it writes itself: an HTTP status it interpreted
 * ("answered HTTP 503", "refused the credentials", "throttled", "quota"), a connection never made ("call
 * failed: connect ECONNREFUSED …", "getaddrinfo …"), or a request left without an answer (a timeout, a reset,
 * the deadline). A gateway timeout (504) is an answer that says nothing about the booking behind it.
 */
export function reachOf(error: CarrierError): Reach {
  const message = error.message;
  if (/answered HTTP 504\b/.test(message)) return 'unknown';
  if (/answered HTTP \d{3}|refused the credentials|throttled the call|quota exhausted/.test(message)) return 'answered';
  if (/call failed: (connect\b|getaddrinfo\b|Connect Timeout)/.test(message)) return 'no';
  return 'unknown';
}

/**
 * Sends one call within a credential's limits (a gate of its own per API), never retried after it was sent
 * unless `retry` allows (reads only), and says how far a failed one got.
 */
export async function sendCall(
  kit: CarrierToolkit,
  gate: { key: string; limits: CarrierLimits },
  call: Omit<CarrierCall, 'pace' | 'retry' | 'auth'> & { auth?: CallAuth; retry?: boolean },
): Promise<Sent> {
  const credential = kit.gates.gate(gate.key, gate.limits);
  let sent = false;
  let authFailedLast = false;
  const auth: CallAuth | undefined = call.auth && {
    headers: async () => {
      const headers = await call.auth!.headers();
      authFailedLast = 'retryable' in headers;
      return headers;
    },
    invalidate: () => call.auth!.invalidate(),
  };
  const outcome = await credential.run(
    () =>
      kit.http.call({
        ...call,
        retry: call.retry ?? false,
        ...(auth ? { auth } : {}),
        pace: async (signal) => {
          const paced = await credential.pace(signal);
          if (paced === 'ok') sent = true;
          return paced;
        },
      }),
    call.signal,
  );
  if ('paused' in outcome || 'aborted' in outcome) {
    return { error: heldBack(call.carrier, 'paused' in outcome ? outcome : 'aborted', kit.now()), reach: 'no' };
  }
  if ('retryable' in outcome) {
    if (outcome.throttled && !outcome.held) {
      credential.pause(outcome.throttled, outcome.retry_after_seconds ? kit.now() + outcome.retry_after_seconds * 1000 : undefined);
    }
    // Nothing went out, or the last step was a token that could not be had (any earlier attempt was answered 401).
    const reach: Reach = !sent || authFailedLast || outcome.held ? 'no' : reachOf(outcome);
    return { error: outcome, reach };
  }
  return { response: outcome };
}
