import { Type } from '@sinclair/typebox';
import type { TrackingRegistrar } from '../aggregator.js';
import type { CarrierCapabilities, CarrierError, CarrierRecord, CarrierSettings, TrackResult } from '../carrier.js';
import type { PushCapable, PushedRequest, PushUpdate } from '../push.js';
import { type CarrierResponse, redact } from '../sdk/http.js';
import { type CallContext, HttpCarrier } from '../sdk/http-carrier.js';
import { type CarrierLimits, nextReset } from '../sdk/limits.js';
import { CredentialText, PollIntervalSetting, secret } from '../sdk/settings.js';
import { TRK17T_CODES, TRK17T_ERRORS } from './trk17t.codes.js';
import { type CodeMapper, mapTrackInfo, parseTrk17tPush, type Refusal, readEnvelope } from './trk17t.mapper.js';
import { integer, isObject, normalizeNumber, text } from './trk17t.payload.js';
import { trk17tPushToken, verifySign } from './trk17t.push.js';

/** The API's version path below the base URL. */
export const TRK17T_API_PATH = '/track/v2.2';

/** 17TRACK takes at most 40 numbers per call (error -18010014 beyond). */
const NUMBERS_PER_CALL = 40;

const QUOTA_CODES: readonly number[] = [TRK17T_ERRORS.dailyLimit, TRK17T_ERRORS.quotaSpent];

/** What a registration did for one number. */
type Registration = 'registered' | 'known' | CarrierError;

/**
 * 17TRACK Tracking API v2.2: every call a JSON POST of up to 40 `{ "number" }` with the `17token` header. A poll
 * asks `gettrackinfo`; the numbers 17TRACK does not know (-18019902) are registered in one `register` call (17TRACK
 * bills each registration once; a registered number answers -18019901 and is not counted); tracking is stopped
 * with `stoptrack` and started again with `retrack`; webhooks are checked by the push token in the hook URL and
 * 17TRACK's `sign` header.
 * docs/carriers/trk17t.md describes the API and the choices.
 */
export class Trk17tCarrier extends HttpCarrier implements TrackingRegistrar, PushCapable {
  static readonly id = 'trk17t';

  readonly registersNumbers = true;

  readonly record: CarrierRecord = {
    id: Trk17tCarrier.id,
    name: '17TRACK',
    // Follows couriers worldwide; each shipment shows the courier that carries it.
    country_iso: [],
    language: ['en'],
    supported_languages: ['en'],
    contact: null,
    site_link: 'https://www.17track.net',
  };

  readonly capabilities: CarrierCapabilities = { tracking: true, booking: false, pudo: false, push: true };

  readonly settingsSchema = Type.Object({
    api_key: secret(CredentialText('17TRACK security key (API dashboard → Settings → Security → Access Key), sent as the 17token header')),
    webhook_key: Type.Optional(
      secret(
        CredentialText('The key 17TRACK signs webhook pushes with (the sign header), when it is not the API key; by default the API key'),
      ),
    ),
    poll_interval_seconds: PollIntervalSetting,
  });

  readonly limits: CarrierLimits = {
    numbers_per_call: NUMBERS_PER_CALL,
    // Not documented: kept low.
    concurrent_calls: 2,
    // Three requests a second per key (17TRACK's v1 documentation; v2.2 states no other figure we could find).
    requests_per_second: 3,
    // Plans count registered numbers, not calls: no daily call quota.
    daily_quota: null,
    // A spent quota pauses the credential until the next 00:00 UTC (see untilReset).
    quota_reset_utc: '00:00',
    // Not documented; 17TRACK's webhooks bring the news, polls are the safety net.
    min_poll_interval_seconds: 3_600,
  };

  /** Production only: 17TRACK has no test environment (each account has 100 free registrations a month). */
  protected readonly baseUrls = { production: 'https://api.17track.net' };

  /** The key alone identifies the credential (the webhook key only checks pushes). */
  protected override credentialParts(settings: Readonly<Record<string, unknown>>): unknown[] {
    return [['api_key', settings.api_key ?? null]];
  }

  protected async trackBatch(numbers: string[], context: CallContext): Promise<TrackResult[] | CarrierError> {
    const response = await this.post(context, 'gettrackinfo', numbers);
    if ('retryable' in response) return this.untilReset(response);
    if (response.status !== 200) return this.unreadable(context, response);
    const eventKeyOf: CodeMapper = (codes) => this.code(TRK17T_CODES, codes);
    const mapped = mapTrackInfo(response.json(), numbers, { eventKeyOf, unchanged: this.sameAnswer(context) });
    if (!mapped) return this.unreadable(context, response);
    const answered = mapped.results.length + mapped.unregistered.length + mapped.refused.size;
    if (mapped.code !== 0 && answered === 0) return this.requestRefused(context, mapped.code, response);
    const results = [...mapped.results];
    for (const [number, refusal] of mapped.refused)
      results.push({ ...this.numberRefused(context, refusal, 'the number'), tracking_number: number });
    if (mapped.unregistered.length > 0) {
      const registered = await this.register(mapped.unregistered, context);
      for (const number of mapped.unregistered) {
        const outcome = registered.get(number) ?? { status: 'error', retryable: true, message: '17TRACK gave no answer for this number' };
        // Registered now (or before): 17TRACK has no tracking information for it yet.
        results.push(
          typeof outcome === 'string' ? { status: 'not_found', tracking_number: number } : { ...outcome, tracking_number: number },
        );
      }
    }
    return results;
  }

  /**
   * Registers numbers 17TRACK does not know, in one call: the only place numbers are registered, so a number is
   * registered once however often it is polled. Each number 17TRACK accepted is counted; one it says it knows
   * already (-18019901) is registered and not counted.
   */
  private async register(numbers: string[], context: CallContext): Promise<Map<string, Registration>> {
    const outcomes = new Map<string, Registration>();
    const response = await this.post(context, 'register', numbers);
    if ('retryable' in response || response.status !== 200) {
      const failure = 'retryable' in response ? this.untilReset(response) : this.unreadable(context, response, 'registration answer');
      for (const number of numbers) outcomes.set(number, failure);
      return outcomes;
    }
    const envelope = readEnvelope(response.json(), numbers);
    if (!envelope) {
      for (const number of numbers) outcomes.set(number, this.unreadable(context, response, 'registration answer'));
      return outcomes;
    }
    let accepted = 0;
    for (const number of numbers) {
      const refusal = envelope.rejected.get(number);
      if (envelope.accepted.has(number)) {
        outcomes.set(number, 'registered');
        accepted++;
      } else if (refusal?.code === TRK17T_ERRORS.alreadyRegistered) outcomes.set(number, 'known');
      else if (refusal) outcomes.set(number, this.numberRefused(context, refusal, 'the registration'));
      else if (envelope.code !== 0) outcomes.set(number, this.codeError(context, envelope.code, null));
    }
    this.kit.metrics.registered(this.record.id, accepted);
    return outcomes;
  }

  /**
   * Stops tracking the numbers at 17TRACK (`stoptrack`), 40 a call, within the credential's limits. A number
   * 17TRACK no longer tracks (-18019906) or never registered (-18019902) counts as stopped. Never throws.
   */
  async stopTracking(
    numbers: readonly string[],
    settings: CarrierSettings,
    options: { now: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok' } | CarrierError> {
    const unique = [...new Set(numbers.map(normalizeNumber))].filter((n) => n !== '');
    return this.inParts(unique, NUMBERS_PER_CALL, settings, options, 'stop', (part, context) => this.stop(part, context));
  }

  private async stop(numbers: string[], context: CallContext): Promise<'stopped' | CarrierError> {
    const response = await this.post(context, 'stoptrack', numbers);
    if ('retryable' in response) return this.untilReset(response);
    if (response.status !== 200) return this.unreadable(context, response, 'stop answer');
    const envelope = readEnvelope(response.json(), numbers);
    if (!envelope) return this.unreadable(context, response, 'stop answer');
    if (envelope.code !== 0 && envelope.accepted.size + envelope.rejected.size === 0) {
      return this.requestRefused(context, envelope.code, response);
    }
    const done: readonly number[] = [TRK17T_ERRORS.notBeingTracked, TRK17T_ERRORS.notRegistered];
    for (const number of numbers) {
      const refusal = envelope.rejected.get(number);
      if (envelope.accepted.has(number) || (refusal && refusal.code !== null && done.includes(refusal.code))) continue;
      if (refusal) return this.numberRefused(context, refusal, 'to stop the number');
      return { status: 'error', retryable: true, message: '17TRACK did not say whether it stopped the number' };
    }
    return 'stopped';
  }

  /**
   * Has 17TRACK track stopped numbers again (`retrack`), 40 a call, within the credential's limits. 17TRACK re-tracks
   * a number once in its lifetime: a number it re-tracked before (-18019905) counts as done, as do one it tracks
   * already (-18019904) and one it never registered (-18019902, registered by the poll that follows). Never throws.
   */
  async resumeTracking(
    numbers: readonly string[],
    settings: CarrierSettings,
    options: { now: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok' } | CarrierError> {
    const unique = [...new Set(numbers.map(normalizeNumber))].filter((n) => n !== '');
    return this.inParts(unique, NUMBERS_PER_CALL, settings, options, 're-tracking', (part, context) => this.retrack(part, context));
  }

  private async retrack(numbers: string[], context: CallContext): Promise<'tracked' | CarrierError> {
    const response = await this.post(context, 'retrack', numbers);
    if ('retryable' in response) return this.untilReset(response);
    if (response.status !== 200) return this.unreadable(context, response, 're-tracking answer');
    const envelope = readEnvelope(response.json(), numbers);
    if (!envelope) return this.unreadable(context, response, 're-tracking answer');
    if (envelope.code !== 0 && envelope.accepted.size + envelope.rejected.size === 0) {
      return this.requestRefused(context, envelope.code, response);
    }
    const done: readonly number[] = [TRK17T_ERRORS.notStopped, TRK17T_ERRORS.retrackedOnce, TRK17T_ERRORS.notRegistered];
    for (const number of numbers) {
      const refusal = envelope.rejected.get(number);
      if (envelope.accepted.has(number) || (refusal && refusal.code !== null && done.includes(refusal.code))) continue;
      if (refusal) return this.numberRefused(context, refusal, 'to re-track the number');
      return { status: 'error', retryable: true, message: '17TRACK did not say whether it re-tracked the number' };
    }
    return 'tracked';
  }

  /** A pushed body, mapped like a poll. */
  parsePush(body: unknown): { ok: true; updates: PushUpdate[] } | { ok: false; message: string } {
    return parseTrk17tPush(body, { eventKeyOf: (codes) => this.code(TRK17T_CODES, codes) });
  }

  /** The configuration's push token, given in the hook URL set in 17TRACK's dashboard (`?push_token=`). */
  pushToken(headers: PushedRequest['headers'], request?: PushedRequest): string | null {
    return trk17tPushToken(headers, request);
  }

  /** 17TRACK's `sign` header: SHA-256 of the raw body, `/` and the key (the webhook key, else the API key). */
  verifyPush(request: PushedRequest, settings: CarrierSettings): boolean {
    const key = text(settings.webhook_key) ?? text(settings.api_key);
    return key !== null && verifySign(request, key);
  }

  /** `POST /track/v2.2/{action}` with `[{ "number" }]`; a spent quota in the request's own code pauses the credential. */
  private post(context: CallContext, action: string, numbers: readonly string[]): Promise<CarrierResponse | CarrierError> {
    return this.call(context, {
      method: 'POST',
      url: `${context.baseUrl}${TRK17T_API_PATH}/${action}`,
      headers: { '17token': String(context.settings.api_key), 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(numbers.map((number) => ({ number: normalizeNumber(number) }))),
      isQuotaExceeded: (answer) => {
        const body = answer.json();
        const code = isObject(body) ? integer(body.code) : null;
        return code !== null && QUOTA_CODES.includes(code);
      },
    });
  }

  /**
   * A spent quota pauses the credential until the next 00:00 UTC: the soonest it can come back. 17TRACK documents
   * a monthly reset of its free quota and none for bought quota (it is back when the merchant buys more); a day's
   * limit set in its dashboard ends with the day. A refused registration costs nothing, so asking daily is free.
   */
  private untilReset(error: CarrierError): CarrierError {
    if (error.throttled !== 'quota' || error.retry_after_seconds !== undefined) return error;
    const now = this.kit.now();
    const seconds = Math.max(1, Math.ceil((nextReset(now, this.limits.quota_reset_utc) - now) / 1000));
    return { ...error, retry_after_seconds: seconds };
  }

  /** One number refused, by its error code. */
  private numberRefused(context: CallContext, refusal: Refusal, what: string): CarrierError {
    if (refusal.code === TRK17T_ERRORS.carrierNotDetected) {
      return {
        status: 'error',
        retryable: false,
        message: `17TRACK cannot tell which carrier carries this number (${refusal.code})${refusal.message ? `: ${redact(refusal.message, context.secrets)}` : ''}`,
      };
    }
    return this.codeError(context, refusal.code, refusal.message, what);
  }

  /** A whole request refused: the request's code, with 17TRACK's words where it gave some. */
  private requestRefused(context: CallContext, code: number | null, response: CarrierResponse): CarrierError {
    const body = response.json();
    const data = isObject(body) && isObject(body.data) ? body.data : {};
    const errors = Array.isArray(data.errors) ? data.errors : [];
    const first = isObject(errors[0]) ? errors[0] : {};
    return this.codeError(context, code, text(first.message) ?? text(isObject(body) ? body.message : null));
  }

  private codeError(context: CallContext, code: number | null, said: string | null, what = 'the request'): CarrierError {
    const words = said ? `: ${redact(said.slice(0, 200), context.secrets)}` : '';
    const named = `17TRACK refused ${what} (${code ?? 'no code'})${words}`;
    if (code !== null && QUOTA_CODES.includes(code)) {
      return this.untilReset({ status: 'error', retryable: true, throttled: 'quota', message: `17TRACK quota spent (${code})${words}` });
    }
    if (code !== null && (TRK17T_ERRORS.credentials as readonly number[]).includes(code)) {
      return { status: 'error', retryable: false, message: `17TRACK refused the credentials (${code})${words}` };
    }
    if (code !== null && (TRK17T_ERRORS.invalidData as readonly number[]).includes(code)) {
      return { status: 'error', retryable: false, message: named };
    }
    return { status: 'error', retryable: true, message: named };
  }
}
