import { Type } from '@sinclair/typebox';
import type { CarrierCapabilities, CarrierError, CarrierRecord, ProofOfDelivery, TrackResult } from '../carrier.js';
import { answeredStatus, type CarrierResponse } from '../sdk/http.js';
import { type CallContext, HttpCarrier } from '../sdk/http-carrier.js';
import type { CarrierLimits } from '../sdk/limits.js';
import { CredentialText, PollIntervalSetting, secret } from '../sdk/settings.js';
import { ROYALM_CODES } from './royalm.codes.js';
import { type CodeMapper, mapEventsAnswer, readSummary, type SignatureNotice } from './royalm.mapper.js';
import { mapSignatureBody, signatureAbsence } from './royalm.signature.js';

function isError(outcome: CarrierResponse | CarrierError): outcome is CarrierError {
  return outcome.status === 'error';
}

/**
 * Royal Mail's Tracking API v2 (docs/carriers/royalm.md): business customers' applications, authenticated by an
 * IBM API Connect client id and secret on every call. A poll asks the summary of up to 30 numbers in one call and
 * then the full history (`/events`, one number per call) only of the numbers whose summary is not the one
 * stored with their last answer; the signature of a signed-for item is its proof of delivery.
 */
export class RoyalMailCarrier extends HttpCarrier {
  static readonly id = 'royalm';

  readonly record: CarrierRecord = {
    id: RoyalMailCarrier.id,
    name: 'Royal Mail',
    country_iso: ['GB'],
    language: ['en'],
    supported_languages: ['en'],
    contact: null,
    site_link: 'https://www.royalmail.com/track-your-item',
  };

  readonly capabilities: CarrierCapabilities = { tracking: true, booking: false, pudo: false, push: false };

  readonly settingsSchema = Type.Object({
    client_id: CredentialText(
      'Client ID (X-IBM-Client-Id) of the application registered on developer.royalmail.net and subscribed to Royal Mail Tracking (for Server-side app) v2',
    ),
    client_secret: secret(CredentialText('Client secret (X-IBM-Client-Secret) of that application')),
    poll_interval_seconds: PollIntervalSetting,
  });

  /**
   * The summary takes up to 30 numbers (documented). Royal Mail's plans set each application's rate and quota
   * and do not publish them (only the Assessment plans: 50 calls a day, 25 per 12 hours while on-boarding): the
   * rate and concurrency are modest choices, and a `429` pauses the credential. No poll guideline is published:
   * half an hour at most between polls of one item. A history counts against the rate as a summary does: the
   * poller claims by the histories the credential's numbers have needed lately (`followUpCalls`).
   */
  readonly limits: CarrierLimits = {
    numbers_per_call: 30,
    concurrent_calls: 2,
    requests_per_second: 2,
    daily_quota: null,
    quota_reset_utc: '00:00',
    min_poll_interval_seconds: 1800,
  };

  /** Production only: Royal Mail has no public sandbox (applications on-board on a low-limit plan of the same host). */
  protected readonly baseUrls = { production: 'https://api.royalmail.net' };

  protected async trackBatch(numbers: string[], context: CallContext): Promise<TrackResult[] | CarrierError> {
    const ids = numbers.map((n) => encodeURIComponent(n.replace(/\s+/g, '').toUpperCase())).join(',');
    const response = await this.call(context, {
      method: 'GET',
      url: `${context.baseUrl}/mailpieces/v2/summary?mailPieceId=${ids}`,
      headers: this.headers(context),
    });
    if (isError(response)) return response;
    const verdicts = readSummary(response.json(), numbers);
    if (!verdicts) return this.unreadable(context, response, 'summary answer');
    const results: TrackResult[] = [];
    const history: Array<{ number: string; fingerprinted: boolean }> = [];
    for (const number of numbers) {
      const verdict = verdicts.get(number) ?? { kind: 'missing' };
      if (verdict.kind === 'answered') results.push(redacted(verdict.result, context.secrets));
      else if (verdict.kind === 'missing') history.push({ number, fingerprinted: false });
      else {
        // The summary entry (its last event, status and product) stands for the number's data: when it is the one
        // stored, so is the history, and nothing is fetched.
        const unchanged = this.unchangedAnswer(context, number, verdict.entry);
        if (unchanged) results.push(unchanged);
        else history.push({ number, fingerprinted: true });
      }
    }
    // The histories count against the rate as the summary does: the poller sizes its claims by them.
    this.followUpCalls(context, numbers.length, history.length);
    // One history call after another: each batch holds one of the credential's calls in flight.
    let stop: CarrierError | null = null;
    for (const { number, fingerprinted } of history) {
      if (stop) {
        results.push({ ...stop, tracking_number: number });
        continue;
      }
      const result = await this.events(number, fingerprinted, context);
      if (result.status === 'error' && stopsTheBatch(result)) {
        const { tracking_number: _number, ...error } = result;
        stop = error;
      }
      results.push(result);
    }
    return results;
  }

  private async events(number: string, fingerprinted: boolean, context: CallContext): Promise<TrackResult> {
    const response = await this.call(context, {
      method: 'GET',
      url: `${context.baseUrl}/mailpieces/v2/${encodeURIComponent(number.replace(/\s+/g, '').toUpperCase())}/events`,
      headers: this.headers(context),
    });
    if (isError(response)) return { ...response, tracking_number: number };
    if (response.status === 200 && !fingerprinted) {
      // No summary stood for it: the history itself is the number's data.
      const unchanged = this.unchangedAnswer(context, number, response.body);
      if (unchanged) return unchanged;
    }
    const body = response.json();
    if (body === undefined) {
      return { ...this.unreadable(context, response, 'events answer'), retryable: response.status === 200, tracking_number: number };
    }
    const code: CodeMapper = (codes) => this.code(ROYALM_CODES, codes);
    const result = mapEventsAnswer(number, response.status, body, {
      code,
      proofOfDelivery: (mailPieceId, notice) => this.signature(mailPieceId, notice, context),
    });
    // The mapper quotes Royal Mail's error texts, which may echo what was sent.
    return redacted(result, context.secrets);
  }

  private headers(context: CallContext): Record<string, string> {
    return {
      'x-ibm-client-id': String(context.settings.client_id ?? ''),
      'x-ibm-client-secret': String(context.settings.client_secret ?? ''),
      'x-accept-rmg-terms': 'yes',
      accept: 'application/json',
    };
  }

  /**
   * The recipient's signature, downloaded when the service asks for it, within this credential's limits. Royal
   * Mail sends a base64 PNG or an SVG; either is stored as PNG.
   */
  private signature(mailPieceId: string, notice: SignatureNotice, context: CallContext): ProofOfDelivery {
    const id = mailPieceId.replace(/\s+/g, '').toUpperCase();
    return {
      reference: notice.reference,
      file_name: `${id.replace(/[^A-Z0-9]/g, '')}-signature.png`,
      content_type: 'image/png',
      fetch: async ({ signal }) => {
        const call = { ...context, signal };
        const outcome = await this.gated(call, () =>
          this.call(call, {
            method: 'GET',
            url: `${context.baseUrl}/mailpieces/v2/${encodeURIComponent(id)}/signature`,
            headers: this.headers(context),
          }),
        );
        if (isError(outcome)) return outcome;
        const body = outcome.json();
        const image =
          outcome.status === 200 && body !== undefined
            ? await mapSignatureBody(body)
            : (signatureAbsence(outcome.status, body) ?? this.unreadable(call, outcome, 'signature answer'));
        return image.status === 'error' ? { ...image, message: redact(image.message, context.secrets) } : image;
      },
    };
  }
}

/** A result whose message quotes Royal Mail, which may echo what was sent: the credentials are taken out. */
function redacted(result: TrackResult, secrets: readonly string[]): TrackResult {
  return result.status === 'error' ? { ...result, message: redact(result.message, secrets) } : result;
}

function redact(message: string, secrets: readonly string[]): string {
  return secrets.reduce((text, secret) => (secret.length >= 4 ? text.split(secret).join('[redacted]') : text), message);
}

/**
 * A history call whose failure says the next ones would fail too: throttled (the credential is paused after the
 * batch), held back by our own limits, or refused credentials. The numbers after it are not asked.
 */
function stopsTheBatch(error: CarrierError): boolean {
  const status = answeredStatus(error);
  return Boolean(error.throttled) || error.held === true || status === 401 || status === 403;
}
