import { Type } from '@sinclair/typebox';
import type { CarrierCapabilities, CarrierError, CarrierRecord, TrackResult } from '../carrier.js';
import { type CallContext, HttpCarrier } from '../sdk/http-carrier.js';
import type { CarrierLimits } from '../sdk/limits.js';
import { CredentialText, PollIntervalSetting, secret } from '../sdk/settings.js';
import { LAPOSTE_CODES } from './lapost.codes.js';
import { type CodeMapper, mapSuiviBody, suiviEntries } from './lapost.mapper.js';
import { LAPOSTE_LANGUAGES, type LaPosteLanguage } from './lapost.payload.js';

/** The language asked when a configuration sets none: English, like our standard event texts. */
export const DEFAULT_LAPOSTE_LANGUAGE: LaPosteLanguage = 'en_GB';

/**
 * La Poste, Colissimo and Chronopost through La Poste's tracking API "Suivi v2" (one API for letters, parcels
 * and express). An `X-Okapi-Key` authenticates; it usually belongs to the integrator, so the operator sets
 * `WAYBILL_CARRIER_LAPOST_API_KEY` and a configuration may set its own. docs/carriers/lapost.md has the details.
 */
export class LaPosteCarrier extends HttpCarrier {
  static readonly id = 'lapost';

  readonly record: CarrierRecord = {
    id: LaPosteCarrier.id,
    name: 'La Poste / Colissimo / Chronopost',
    country_iso: ['FR'],
    language: ['fr'],
    supported_languages: ['fr', 'en', 'de', 'es', 'it', 'nl'],
    contact: null,
    site_link: 'https://www.laposte.fr/outils/suivre-vos-envois',
  };

  readonly capabilities: CarrierCapabilities = { tracking: true, booking: false, pudo: false, push: false };

  readonly settingsSchema = Type.Object({
    // Required, but a key the operator provides (WAYBILL_CARRIER_<ID>_API_KEY) counts: a configuration is refused
    // only when neither the merchant nor the operator has one.
    api_key: secret(
      CredentialText('La Poste Okapi key (X-Okapi-Key) of an application subscribed to Suivi v2; the operator may provide one'),
    ),
    // One enum rather than a union of literals: a wrong value gets one clear message.
    language: Type.Optional(
      Type.Unsafe<LaPosteLanguage>({
        type: 'string',
        enum: [...LAPOSTE_LANGUAGES],
        description: `Language of La Poste's event texts (lang): ${LAPOSTE_LANGUAGES.join(', ')}; default ${DEFAULT_LAPOSTE_LANGUAGE}`,
      }),
    ),
    poll_interval_seconds: PollIntervalSetting,
  });

  /**
   * Suivi v2 takes 1 to 10 comma-separated numbers per call; its plan allows 10 calls per second. Concurrency
   * and the poll interval are not documented: kept modest. No daily quota is published.
   */
  readonly limits: CarrierLimits = {
    numbers_per_call: 10,
    concurrent_calls: 4,
    requests_per_second: 10,
    daily_quota: null,
    quota_reset_utc: '00:00',
    min_poll_interval_seconds: 900,
  };

  /** Production only: La Poste has no test environment for Suivi v2. */
  protected readonly baseUrls = { production: 'https://api.laposte.fr' };

  protected async trackBatch(numbers: string[], context: CallContext): Promise<TrackResult[] | CarrierError> {
    const key = context.settings.api_key;
    if (typeof key !== 'string' || key.trim() === '') {
      return {
        status: 'error',
        retryable: false,
        message: `${this.record.name}: no API key. Set settings.api_key, or ask the operator to set WAYBILL_CARRIER_LAPOST_API_KEY`,
      };
    }
    const language = (LAPOSTE_LANGUAGES as readonly unknown[]).includes(context.settings.language)
      ? (context.settings.language as LaPosteLanguage)
      : DEFAULT_LAPOSTE_LANGUAGE;
    const ids = numbers.map((n) => encodeURIComponent(n.replace(/\s+/g, '').toUpperCase())).join(',');
    const response = await this.call(context, {
      method: 'GET',
      url: `${context.baseUrl}/suivi/v2/idships/${ids}?lang=${language}`,
      headers: { 'x-okapi-key': key, accept: 'application/json' },
    });
    if ('retryable' in response) return response;
    const code: CodeMapper = (codes) => this.code(LAPOSTE_CODES, codes);
    // Envelope by envelope where each names its number (those as stored are not parsed), else whole.
    const results =
      this.mapByEntry(context, response, numbers, suiviEntries, (envelopes, asked) => mapSuiviBody(envelopes, asked, code)) ??
      mapSuiviBody(response.json(), numbers, code, this.sameAnswer(context));
    if (results !== null) return results;
    // An unknown number has also been answered with a bare 404 without a JSON body.
    if (response.status === 404) return numbers.map((n) => ({ status: 'not_found', tracking_number: n }));
    return this.unreadable(context, response);
  }
}
