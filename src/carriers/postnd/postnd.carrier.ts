import { Type } from '@sinclair/typebox';
import type { CarrierCapabilities, CarrierRecord, TrackResult } from '../carrier.js';
import { type CallContext, HttpCarrier } from '../sdk/http-carrier.js';
import type { CarrierLimits } from '../sdk/limits.js';
import { CredentialText, EnvironmentSetting, PollIntervalSetting, secret } from '../sdk/settings.js';
import { POSTNORD_CODES } from './postnd.codes.js';
import { faultsText, isPostnordIdentifier, mapTrackingBody, normalizeIdentifier } from './postnd.mapper.js';
import { POSTNORD_LOCALES, type PostnordLocale } from './postnd.payload.js';

/** The locale asked when a configuration sets none: English, like our standard event texts (and PostNord's default). */
export const DEFAULT_POSTNORD_LOCALE: PostnordLocale = 'en';

/**
 * PostNord (Sweden, Denmark, Norway, Finland) through its Track and Trace API v5: one identifier per call
 * (`findByIdentifier`), the API key as the `apikey` query parameter, local times without offset.
 * docs/carriers/postnd.md has the details.
 */
export class PostnordCarrier extends HttpCarrier {
  static readonly id = 'postnd';

  readonly record: CarrierRecord = {
    id: PostnordCarrier.id,
    name: 'PostNord',
    country_iso: ['SE', 'DK', 'NO', 'FI'],
    language: ['en'],
    supported_languages: ['en', 'sv', 'no', 'da', 'fi'],
    contact: null,
    site_link: 'https://www.postnord.com',
  };

  readonly capabilities: CarrierCapabilities = { tracking: true, booking: false, pudo: false, push: false };

  readonly settingsSchema = Type.Object({
    // A partner may hold one key for all its customers: the operator then sets WAYBILL_CARRIER_POSTND_API_KEY.
    api_key: secret(CredentialText('PostNord API key from the Developer Portal (sent as the apikey query parameter)')),
    environment: EnvironmentSetting,
    locale: Type.Optional(
      Type.Unsafe<PostnordLocale>({
        type: 'string',
        enum: [...POSTNORD_LOCALES],
        description: `Language of PostNord's event texts (locale): ${POSTNORD_LOCALES.join(', ')}; default ${DEFAULT_POSTNORD_LOCALE}`,
      }),
    ),
    poll_interval_seconds: PollIntervalSetting,
  });

  /**
   * findByIdentifier takes one identifier; PostNord publishes no rate, concurrency or quota figure and asks that
   * the API be called only when the events are needed, less at night than by day: a few calls at once, five a
   * second per key, no parcel asked more than once an hour.
   */
  readonly limits: CarrierLimits = {
    numbers_per_call: 1,
    concurrent_calls: 4,
    requests_per_second: 5,
    daily_quota: null,
    quota_reset_utc: '00:00',
    min_poll_interval_seconds: 3600,
  };

  protected readonly baseUrls = { production: 'https://api2.postnord.com', sandbox: 'https://atapi2.postnord.com' };

  protected async trackBatch(numbers: string[], context: CallContext): Promise<TrackResult[]> {
    return Promise.all(numbers.map(async (number) => this.trackOne(number, context)));
  }

  private async trackOne(number: string, context: CallContext): Promise<TrackResult> {
    if (!isPostnordIdentifier(number)) {
      // Not sent: PostNord takes identifiers of 10 to 35 letters and digits, and would refuse it with a 400.
      return {
        status: 'error',
        tracking_number: number,
        retryable: false,
        message: 'PostNord identifiers are 10 to 35 letters and digits; this number cannot be one',
      };
    }
    const locale = (POSTNORD_LOCALES as readonly unknown[]).includes(context.settings.locale)
      ? (context.settings.locale as PostnordLocale)
      : DEFAULT_POSTNORD_LOCALE;
    const query = new URLSearchParams({ id: normalizeIdentifier(number), locale, apikey: String(context.settings.api_key ?? '') });
    const response = await this.call(context, {
      method: 'GET',
      url: `${context.baseUrl}/rest/shipment/v5/trackandtrace/findByIdentifier.json?${query}`,
      headers: { accept: 'application/json' },
    });
    if ('retryable' in response) return { ...response, tracking_number: number };
    // Not documented for unknown identifiers (PostNord answers those with an empty list), but plain enough.
    if (response.status === 404) return { status: 'not_found', tracking_number: number };
    if (response.status === 400) {
      // "The server did not understand or could not validate the input parameters": asking again will not help.
      let faults = faultsText(response.json());
      for (const secret of context.secrets) if (secret.length >= 4) faults = faults.split(secret).join('[redacted]');
      return faults
        ? { status: 'error', tracking_number: number, retryable: false, message: `PostNord refused the identifier (HTTP 400): ${faults}` }
        : { ...this.unreadable(context, response), retryable: false, tracking_number: number };
    }
    if (response.status !== 200) return { ...this.unreadable(context, response), tracking_number: number };
    // The body is this number's alone: the same bytes as the stored answer's are that answer again.
    const unchanged = this.unchangedAnswer(context, number, response.body);
    if (unchanged) return unchanged;
    const body = response.json();
    if (body === undefined) return { ...this.unreadable(context, response), retryable: true, tracking_number: number };
    return mapTrackingBody(number, body, (codes) => this.code(POSTNORD_CODES, codes));
  }
}
