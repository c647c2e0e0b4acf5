import { Agent, type Dispatcher, errors as undiciErrors } from 'undici';
import type { CarrierError } from '../carrier.js';
import type { CallOutcome, CarrierMetrics } from './carrier-metrics.js';
import type { Paused } from './limits.js';

/** A request to a carrier API, as an adapter builds it. */
export interface CarrierCall {
  carrier: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** The poller's or the booking's deadline; the call is abandoned when it fires. */
  signal?: AbortSignal;
  /** Per-attempt timeout; default 20 s. */
  timeoutMs?: number;
  /** Largest answer accepted; default 4 MiB. */
  maxBytes?: number;
  /** Texts that must never appear in logs or errors (credentials, tokens). */
  secrets?: readonly string[];
  /**
   * Retry once after a 5xx or a timeout. True by default: tracking calls are reads. Booking calls pass
   * false, because a carrier may have booked before its answer was lost.
   */
  retry?: boolean;
  /** Bearer authorization: its header is added, and a 401 drops the token and retries once with a new one. */
  auth?: CallAuth;
  /**
   * Waits until the credential may send one more request, and counts it (`CredentialGate.pace`); called
   * right before each request, retries included. Without it, requests go at once (token endpoints).
   */
  pace?: (signal?: AbortSignal) => Promise<'ok' | Paused | 'aborted'>;
  /**
   * Told each time the request is written to a connection, which can be later than its turn at the pace (a new
   * connection to open, a busy process): the credential spaces the next request from then (`CredentialGate.sent`).
   */
  sent?: () => void;
  /** Recognises a carrier's daily-quota answer (often a 429 or 403 with a message), which pauses until the reset. */
  isQuotaExceeded?: (response: CarrierResponse) => boolean;
  /**
   * Recognises a refusal the adapter reads itself whatever its HTTP status: a SOAP fault, which SOAP 1.1 sends
   * with HTTP 500, saying a session token has expired or the request was wrong. It is returned as it came, not
   * retried and not turned into a server error; other answers with that status are handled as usual.
   */
  isFault?: (response: CarrierResponse) => boolean;
}

export interface CallAuth {
  /** The headers to send (e.g. `Authorization: Bearer …`), or the failure to get a token. */
  headers(): Promise<Record<string, string> | CarrierError>;
  /** The token was refused: forget it so that the next `headers()` fetches a new one. */
  invalidate(): void;
}

/** A carrier's answer whose status the adapter interprets (any status but 429, 5xx and a 401 that survived a retry). */
export interface CarrierResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text(): string;
  /** The body as JSON, or undefined when it is not JSON. */
  json(): unknown;
}

/**
 * A failed call, with what the transport knows of its fate at the carrier: for calls that must not be sent
 * twice (bookings), whether the carrier may have acted on it. Every failure of `CarrierHttp.call` has this
 * shape; read it with {@link unanswered} and {@link answeredStatus}.
 */
export interface CarrierCallError extends CarrierError {
  /**
   * The request may have reached the carrier and no readable answer came back: a timeout, a connection
   * reset, the caller's deadline while waiting, an answer over the size limit. Absent when nothing was sent
   * (refused connection, unknown host, our limits or the token kept it back) or when the carrier answered.
   */
  unanswered?: boolean;
  /** The carrier's HTTP status when it answered with a failure (5xx, 429, 401/403). */
  http_status?: number;
}

/** Whether a failed call may have reached the carrier without its answer coming back (see {@link CarrierCallError}). */
export function unanswered(error: CarrierError): boolean {
  return (error as CarrierCallError).unanswered === true;
}

/** The HTTP status of a failure the carrier answered (5xx, 429, 401/403), if it did. */
export function answeredStatus(error: CarrierError): number | undefined {
  return (error as CarrierCallError).http_status;
}

const DEFAULT_TIMEOUT_MS = 20_000;
const DEFAULT_MAX_BYTES = 4 * 1_048_576;

/**
 * The one HTTP client of every carrier adapter (undici, kept-alive connections per origin). It never
 * throws: network faults, timeouts, throttling and server errors come back as `CarrierError`s, with
 * the carrier's `Retry-After` (seconds or HTTP date) in `retry_after_seconds`.
 */
export class CarrierHttp {
  private readonly agent: Agent;

  constructor(
    private readonly metrics: CarrierMetrics,
    private readonly options: { random?: () => number; now?: () => number; connectionsPerOrigin?: number } = {},
  ) {
    this.agent = new Agent({ keepAliveTimeout: 30_000, connections: options.connectionsPerOrigin ?? 32, pipelining: 1 });
  }

  async call(call: CarrierCall): Promise<CarrierResponse | CarrierCallError> {
    let retriedServer = false;
    let retriedAuth = false;
    for (;;) {
      const auth = call.auth ? await call.auth.headers() : {};
      if ('retryable' in auth) {
        // The token call's fate is not this call's: this one was never sent.
        const { unanswered: _unanswered, http_status: _status, ...failure } = auth as CarrierCallError;
        return failure;
      }
      // Past the call's own deadline nothing is sent, nor counted against the credential's limits.
      const paced = call.signal?.aborted ? 'aborted' : call.pace ? await call.pace(call.signal) : 'ok';
      if (paced !== 'ok') return this.notSent(call, paced);
      const attempt = await this.once(call, auth);
      if ('response' in attempt) {
        const response = attempt.response;
        if (response.status === 401 && call.auth && !retriedAuth) {
          retriedAuth = true;
          call.auth.invalidate();
          continue;
        }
        if (call.isQuotaExceeded?.(response)) {
          return this.throttled(call, response, 'quota', `${call.carrier} daily quota exhausted (HTTP ${response.status})`);
        }
        if (call.isFault?.(response)) return response;
        if (response.status === 429) return this.throttled(call, response, 'rate', `${call.carrier} throttled the call (HTTP 429)`);
        if (response.status >= 500) {
          if (call.retry !== false && !retriedServer && !call.signal?.aborted) {
            retriedServer = true;
            await this.jitter(call.signal);
            continue;
          }
          const retryAfter = retryAfterSeconds(response.headers['retry-after'], this.now());
          return {
            status: 'error',
            retryable: true,
            http_status: response.status,
            ...(retryAfter !== undefined ? { retry_after_seconds: retryAfter } : {}),
            message: redact(`${call.carrier} answered HTTP ${response.status}: ${snippet(response.text())}`, call.secrets),
          };
        }
        if (response.status === 401 || response.status === 403) {
          return {
            status: 'error',
            retryable: false,
            http_status: response.status,
            message: redact(`${call.carrier} refused the credentials (HTTP ${response.status}): ${snippet(response.text())}`, call.secrets),
          };
        }
        return response;
      }
      if (attempt.outcome === 'timeout' && call.retry !== false && !retriedServer && !call.signal?.aborted) {
        retriedServer = true;
        await this.jitter(call.signal);
        continue;
      }
      return {
        status: 'error',
        retryable: attempt.outcome !== 'too_large',
        ...(attempt.sent ? { unanswered: true } : {}),
        message: redact(attempt.message, call.secrets),
      };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /**
   * One request, its answer read into memory. Dispatched straight to the agent with a handler that keeps the
   * body's chunks (no stream in between: a carrier answer is read whole anyway); the call's deadline and the
   * attempt's timeout abort it.
   */
  private once(
    call: CarrierCall,
    authHeaders: Record<string, string>,
  ): Promise<{ response: CarrierResponse } | { outcome: CallOutcome; message: string; sent: boolean }> {
    const started = performance.now();
    const maxBytes = call.maxBytes ?? DEFAULT_MAX_BYTES;
    const seconds = () => (performance.now() - started) / 1000;
    return new Promise((resolve) => {
      let controller: Dispatcher.DispatchController | null = null;
      /** Why the call was given up (its deadline, the attempt's timeout, an answer too large); null while it runs. */
      let stopped: 'aborted' | 'timeout' | 'too_large' | null = null;
      let done = false;
      /** Whether the request was handed to a connection to be written: from then on the carrier may act on it. */
      let written = false;
      let status = 0;
      let headers: Record<string, string | string[] | undefined> = {};
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = (outcome: { response: CarrierResponse } | { outcome: CallOutcome; message: string; sent: boolean }) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        call.signal?.removeEventListener('abort', onAbort);
        this.metrics.call(call.carrier, 'response' in outcome ? outcomeOf(outcome.response.status) : outcome.outcome, seconds());
        resolve(outcome);
      };
      const stop = (why: 'aborted' | 'timeout' | 'too_large', message: string) => {
        if (done) return;
        stopped = why;
        // Settled before the abort: undici may report the abort to the handler at once.
        finish({ outcome: why, message, sent: true });
        controller?.abort(new Error(message));
      };
      const timer = setTimeout(() => stop('timeout', `${call.carrier} call timed out`), call.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      const onAbort = () => stop('aborted', `${call.carrier} call abandoned at its deadline`);
      if (call.signal?.aborted) return onAbort();
      call.signal?.addEventListener('abort', onAbort, { once: true });
      let url: URL;
      try {
        url = new URL(call.url);
      } catch {
        return finish({ outcome: 'network', message: `${call.carrier} call failed: not a URL`, sent: false });
      }
      const options: Dispatcher.DispatchOptions = {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: call.method,
        headers: { 'user-agent': 'Waybill', accept: 'application/json', ...call.headers, ...authHeaders },
        body: call.body,
      };
      const failed = (error: Error) => {
        const timedOut = error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError;
        const outcome: CallOutcome = timedOut ? 'timeout' : 'network';
        const reason = outcome === 'network' ? `: ${error.message}` : '';
        finish({
          outcome,
          // An error code alone does not tell: EHOSTUNREACH can also end a connection the request went out on.
          sent: outcome !== 'network' || written || !neverConnected(error),
          message: `${call.carrier} call ${outcome === 'timeout' ? 'timed out' : `failed${reason}`}`,
        });
      };
      try {
        this.agent.dispatch(options, {
          onRequestStart: (control) => {
            controller = control;
            // Given up while it waited for a connection: it is not written.
            if (stopped) control.abort(new Error(`${call.carrier} call given up`));
            else {
              written = true;
              call.sent?.();
            }
          },
          onResponseStart: (_control, statusCode, responseHeaders) => {
            status = statusCode;
            headers = responseHeaders as Record<string, string | string[] | undefined>;
            const declared = Number(headers['content-length']);
            if (Number.isFinite(declared) && declared > maxBytes) {
              stop('too_large', `${call.carrier} answer of ${declared} bytes is over the ${maxBytes}-byte limit`);
            }
          },
          onResponseData: (_control, chunk) => {
            size += chunk.length;
            if (size > maxBytes) stop('too_large', `${call.carrier} answer is over the ${maxBytes}-byte limit`);
            else chunks.push(chunk);
          },
          onResponseEnd: () => {
            finish({ response: toResponse(status, headers, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)) });
          },
          onResponseError: (_control, error) => failed(error),
        });
      } catch (error) {
        failed(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  /** A request the credential's limits kept back: a wait like a throttle, never the shipments' failure. */
  private notSent(call: CarrierCall, paced: Paused | 'aborted'): CarrierError {
    return heldBack(call.carrier, paced, this.now());
  }

  private throttled(call: CarrierCall, response: CarrierResponse, kind: 'rate' | 'quota', message: string): CarrierCallError {
    const retryAfter = retryAfterSeconds(response.headers['retry-after'], this.now());
    return {
      status: 'error',
      retryable: true,
      throttled: kind,
      http_status: response.status,
      ...(retryAfter !== undefined ? { retry_after_seconds: retryAfter } : {}),
      message: redact(`${message}: ${snippet(response.text())}`, call.secrets),
    };
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** 100–600 ms, so that many workers retrying a carrier's hiccup do not arrive together. */
  private jitter(signal?: AbortSignal): Promise<void> {
    const ms = 100 + Math.floor((this.options.random ?? Math.random)() * 500);
    return new Promise((resolve) => {
      // The listener goes with the wait: a poll's deadline signal outlives many retries.
      const onAbort = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** Connection errors that happen before a single byte of the request leaves: the carrier cannot have acted on it. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

function neverConnected(error: unknown): boolean {
  for (let cause = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; cause && depth < 4; depth++) {
    if (typeof cause.code === 'string' && NOT_CONNECTED.has(cause.code)) return true;
    cause = cause.cause as typeof cause;
  }
  return false;
}

function outcomeOf(status: number): CallOutcome {
  if (status === 429) return 'throttled';
  if (status === 401 || status === 403) return 'unauthorized';
  if (status >= 500) return 'server_error';
  if (status >= 400) return 'client_error';
  return 'ok';
}

function toResponse(status: number, headers: Record<string, string | string[] | undefined>, body: Buffer): CarrierResponse {
  let parsed: { value: unknown } | undefined;
  return {
    status,
    headers,
    body,
    text: () => body.toString('utf8'),
    json: () => {
      if (!parsed) {
        try {
          parsed = { value: JSON.parse(body.toString('utf8')) };
        } catch {
          parsed = { value: undefined };
        }
      }
      return parsed.value;
    },
  };
}

/**
 * `Retry-After` in either form: delay-seconds (`120`) or an HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`).
 * Returns whole seconds from `nowMs` (at least 1), or undefined when absent or unreadable.
 */
export function retryAfterSeconds(value: string | string[] | undefined, nowMs: number): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d{1,9}$/.test(text)) return Math.max(1, Number(text));
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(1, Math.ceil((at - nowMs) / 1000));
}

/** The start of a carrier's answer, for messages: one line, at most 200 characters. */
function snippet(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line || '(empty body)';
}

/** Replaces every secret (and its URL-encoded and Base64 forms) with `[redacted]`. */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const value of secrets) {
    if (value.length < 4) continue;
    for (const form of new Set([value, encodeURIComponent(value), Buffer.from(value).toString('base64')])) {
      out = out.split(form).join('[redacted]');
    }
  }
  return out;
}

/**
 * A call our own limits kept back (nothing was sent): retryable, `throttled` so that the shipments wait
 * without a failure counted, and `held` so that it pauses the credential no further. `why` is the pause in
 * force, or `aborted` when the wait for a slot or the pace outlasted the caller's deadline (then
 * `waitSeconds`, default a minute, is the hint).
 */
export function heldBack(who: string, why: Paused | 'aborted', nowMs: number, waitSeconds = 60): CarrierError {
  if (why === 'aborted') {
    return {
      status: 'error',
      retryable: true,
      throttled: 'rate',
      held: true,
      retry_after_seconds: Math.max(1, Math.ceil(waitSeconds)),
      message: `${who}: not sent before the deadline, within this credential's limits`,
    };
  }
  return {
    status: 'error',
    retryable: true,
    throttled: why.reason,
    held: true,
    retry_after_seconds: Math.max(1, Math.ceil((why.until_ms - nowMs) / 1000)),
    message: `${who}: this credential is paused (${why.reason === 'quota' ? "the day's quota is spent" : 'the carrier throttled it'})`,
  };
}
