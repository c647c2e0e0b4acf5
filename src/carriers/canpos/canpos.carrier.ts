import { Type } from '@sinclair/typebox';
import type { CarrierCapabilities, CarrierError, CarrierRecord, ProofOfDelivery, TrackResult } from '../carrier.js';
import type { CarrierResponse } from '../sdk/http.js';
import type { CallContext } from '../sdk/http-carrier.js';
import { HttpCarrier } from '../sdk/http-carrier.js';
import type { CarrierLimits } from '../sdk/limits.js';
import { CredentialText, EnvironmentSetting, PollIntervalSetting, secret } from '../sdk/settings.js';
import { mapCertificateBody } from './canpos.certificate.js';
import { CANPOS_CODES } from './canpos.codes.js';
import { mapDetailBody, messagesOf, messagesText, NO_PIN_HISTORY } from './canpos.mapper.js';
import { parseCanposXml } from './canpos.payload.js';

/** The media type of Canada Post's Tracking services, version 2 (`*∕*` is refused). */
export const CANPOS_TRACK_MEDIA_TYPE = 'application/vnd.cpc.track-v2+xml';

/** Canada Post blocks a key that passed its throttle limit "for up to a minute" (Messages and Code Tables). */
const THROTTLE_PAUSE_SECONDS = 60;

function isError(outcome: CarrierResponse | CarrierError): outcome is CarrierError {
  return outcome.status === 'error';
}

/**
 * Canada Post's Tracking web service, REST (docs/carriers/canpos.md): Get Tracking Details for one PIN per call
 * (`GET /vis/track/pin/{pin}/detail`), HTTP Basic with the Developer Program API key's username and password, XML
 * answers; the delivery confirmation certificate (a PDF) as proof of delivery.
 */
export class CanadaPostCarrier extends HttpCarrier {
  static readonly id = 'canpos';

  readonly record: CarrierRecord = {
    id: CanadaPostCarrier.id,
    name: 'Canada Post',
    country_iso: ['CA'],
    language: ['en', 'fr'],
    supported_languages: ['en', 'fr'],
    contact: null,
    site_link: 'https://www.canadapost-postescanada.ca',
  };

  readonly capabilities: CarrierCapabilities = { tracking: true, booking: false, pudo: false, push: false };

  readonly settingsSchema = Type.Object({
    username: secret(CredentialText('Canada Post API key: its username part (sent with HTTP Basic)')),
    password: secret(CredentialText('Canada Post API key: its password part (sent with HTTP Basic)')),
    environment: EnvironmentSetting,
    language: Type.Optional(
      Type.Union([Type.Literal('en'), Type.Literal('fr')], { description: 'Language of event descriptions: en (default) or fr' }),
    ),
    poll_interval_seconds: PollIntervalSetting,
  });

  /**
   * Canada Post publishes no numbers for tracking: each API key has a throttle limit (raised on request from the
   * Developer Program's "Increase Limits" link), and a key over it is blocked for up to a minute. One PIN per call;
   * two calls at once and two a second per key; no parcel asked more than once an hour.
   */
  readonly limits: CarrierLimits = {
    numbers_per_call: 1,
    concurrent_calls: 2,
    requests_per_second: 2,
    daily_quota: null,
    quota_reset_utc: '00:00',
    min_poll_interval_seconds: 3600,
  };

  protected readonly baseUrls = { production: 'https://soa-gw.canadapost.ca', sandbox: 'https://ct.soa-gw.canadapost.ca' };

  protected async trackBatch(numbers: string[], context: CallContext): Promise<TrackResult[]> {
    return Promise.all(numbers.map(async (number) => this.trackOne(number, context)));
  }

  private async trackOne(number: string, context: CallContext): Promise<TrackResult> {
    const pin = number.replace(/\s+/g, '');
    const response = await this.call(context, {
      method: 'GET',
      url: `${context.baseUrl}/vis/track/pin/${encodeURIComponent(pin)}/detail`,
      headers: this.headers(context),
    });
    if (isError(response)) return { ...response, tracking_number: number };
    if (response.status !== 200) {
      const failure = this.failed(context, response);
      return failure === 'not_found' ? { status: 'not_found', tracking_number: number } : { ...failure, tracking_number: number };
    }
    // The body is this PIN's alone: the same bytes as the stored answer's are that answer again.
    const unchanged = this.unchangedAnswer(context, number, response.body);
    if (unchanged) return unchanged;
    const body = parseCanposXml(response.text());
    if (!body) return { ...this.unreadable(context, response), retryable: true, tracking_number: number };
    return mapDetailBody(number, body, {
      code: (codes) => this.code(CANPOS_CODES, codes),
      proofOfDelivery: (deliveredPin) => this.certificate(deliveredPin, context),
    });
  }

  /**
   * A tracking answer other than 200: "No PIN History" is not found whatever its status; a throttle rejection
   * ("Rejected by SLM Monitor") pauses the key for the minute Canada Post blocks it; the rest cannot be read.
   */
  private failed(context: CallContext, response: CarrierResponse): 'not_found' | CarrierError {
    const text = response.text();
    const body = parseCanposXml(text);
    if (messagesOf(body).some((m) => m.code === NO_PIN_HISTORY)) return 'not_found';
    if (/SLM Monitor/i.test(text)) {
      return {
        status: 'error',
        retryable: true,
        throttled: 'rate',
        retry_after_seconds: THROTTLE_PAUSE_SECONDS,
        message: `Canada Post throttled the key (HTTP ${response.status}: rejected by SLM Monitor)`,
      };
    }
    return this.unreadable(context, response);
  }

  private headers(context: CallContext): Record<string, string> {
    const credentials = `${String(context.settings.username ?? '')}:${String(context.settings.password ?? '')}`;
    const encoded = Buffer.from(credentials, 'utf8').toString('base64');
    if (!context.secrets.includes(encoded)) context.secrets.push(encoded);
    return {
      accept: CANPOS_TRACK_MEDIA_TYPE,
      'accept-language': context.settings.language === 'fr' ? 'fr-CA' : 'en-CA',
      authorization: `Basic ${encoded}`,
    };
  }

  /**
   * The delivery confirmation certificate (a PDF Canada Post makes for delivered parcels), downloaded when the
   * service asks for it, within this key's limits as tracking calls are.
   */
  private certificate(pin: string, context: CallContext): ProofOfDelivery {
    return {
      reference: `certificate:${pin}`,
      file_name: `${pin}-delivery-confirmation.pdf`,
      content_type: 'application/pdf',
      fetch: async ({ signal }) => {
        const call = { ...context, signal };
        const outcome = await this.gated(call, () =>
          this.call(call, {
            method: 'GET',
            url: `${context.baseUrl}/vis/certificate/${encodeURIComponent(pin)}`,
            headers: this.headers(context),
          }),
        );
        if (isError(outcome)) return outcome;
        const body = parseCanposXml(outcome.text());
        if (outcome.status !== 200) {
          const messages = messagesText(body);
          if (messages && outcome.status < 500) {
            return { status: 'error', retryable: false, message: `Canada Post has no delivery confirmation certificate (${messages})` };
          }
          return this.unreadable(call, outcome, 'certificate answer');
        }
        if (!body) return { ...this.unreadable(call, outcome, 'certificate answer'), retryable: true };
        return mapCertificateBody(body);
      },
    };
  }
}
