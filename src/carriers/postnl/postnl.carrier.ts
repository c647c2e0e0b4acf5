import { Type } from '@sinclair/typebox';
import type {
  BookingCapable,
  BookingError,
  BookRequest,
  BookResult,
  CarrierFieldError,
  CarrierPudoLocation,
  CarrierPudoQuery,
  FoundBooking,
  PudoSearchCapable,
} from '../booking.js';
import type { CarrierCapabilities, CarrierError, CarrierRecord, CarrierSettings, ProofOfDelivery, TrackResult } from '../carrier.js';
import type { CarrierResponse } from '../sdk/http.js';
import type { CallContext } from '../sdk/http-carrier.js';
import { HttpCarrier } from '../sdk/http-carrier.js';
import type { CarrierLimits } from '../sdk/limits.js';
import { CredentialText, EnvironmentSetting, PollIntervalSetting, secret } from '../sdk/settings.js';
import { checkPostnlBooking, POSTNL_BOOKING_SETTINGS, POSTNL_MAX_PARCELS, POSTNL_PRODUCTS } from './postnl.booking.js';
import { POSTNL_CODES } from './postnl.codes.js';
import { searchLocations } from './postnl.locations.js';
import { mapStatusBody } from './postnl.mapper.js';
import { type PostnlApi, PostnlShipping } from './postnl.shipping.js';
import { EXTENSIONS, mapSignatureBody } from './postnl.signature.js';

/**
 * How long a label call waits for PostNL when `WAYBILL_CARRIER_POSTNL_TIMEOUT_SECONDS` is not set; the request's own
 * wait (src/core/carrier-wait.ts) ends it sooner when shorter. Past it, a confirming call is `outcome_unknown`.
 */
const LABEL_TIMEOUT_SECONDS = 45;

function isError(outcome: CarrierResponse | CarrierError): outcome is CarrierError {
  return outcome.status === 'error';
}

/**
 * PostNL's Shippingstatus API v2 (docs/carriers/postnl.md): one barcode per call with `detail=true` for the
 * scans, an `apikey` header, Dutch local times, and the signature of delivered parcels as proof of delivery.
 * Booking through the Barcode and Labelling APIs (`postnl.shipping.ts`) and PostNL points through the Locations
 * API (`postnl.locations.ts`), with the same key and limits.
 */
export class PostnlCarrier extends HttpCarrier implements BookingCapable, PudoSearchCapable {
  static readonly id = 'postnl';

  readonly record: CarrierRecord = {
    id: PostnlCarrier.id,
    name: 'PostNL',
    country_iso: ['NL', 'BE'],
    language: ['en'],
    supported_languages: ['en'],
    contact: null,
    site_link: 'https://www.postnl.nl',
  };

  readonly capabilities: CarrierCapabilities = { tracking: true, booking: true, pudo: true, push: false };

  readonly settingsSchema = Type.Object({
    api_key: secret(CredentialText('PostNL API key (sent in the apikey header)')),
    environment: EnvironmentSetting,
    poll_interval_seconds: PollIntervalSetting,
    ...POSTNL_BOOKING_SETTINGS,
  });

  readonly maxParcels = POSTNL_MAX_PARCELS;
  readonly cancellation =
    'PostNL has no cancel call: released here after Shippingstatus shows PostNL has only the announcement; refused once PostNL has scanned a parcel.';
  readonly products = POSTNL_PRODUCTS;

  /**
   * PostNL publishes no numeric limits; it asks that the API be called "in useful intervals, and for relevant
   * shipments only", not every minute for every parcel. One barcode per call; a few calls at once and ten a
   * second per key (a booking is a barcode call per parcel and a label call, sent one after another); no parcel
   * asked more than once an hour (its scans come hours apart).
   */
  readonly limits: CarrierLimits = {
    numbers_per_call: 1,
    concurrent_calls: 4,
    requests_per_second: 10,
    daily_quota: null,
    quota_reset_utc: '00:00',
    min_poll_interval_seconds: 3600,
  };

  protected readonly baseUrls = { production: 'https://api.postnl.nl', sandbox: 'https://api-sandbox.postnl.nl' };

  /** Booking and search calls: JSON with the `apikey` header, within the credential's limits. */
  private readonly api: PostnlApi = {
    now: () => this.kit.now(),
    labelTimeoutMs: () => this.kit.operator.bookingTimeoutMs(this.record.id, LABEL_TIMEOUT_SECONDS),
    context: (settings, options) => this.prepare(settings, options),
    send: (context, call) =>
      this.gated(context, () =>
        this.call(context, {
          method: call.method,
          url: `${context.baseUrl}${call.path}`,
          headers: {
            ...this.headers(context),
            accept: 'application/json',
            ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
          retry: call.retry,
          ...(call.maxBytes ? { maxBytes: call.maxBytes } : {}),
          ...(call.timeoutMs ? { timeoutMs: call.timeoutMs } : {}),
        }),
      ),
  };

  private readonly shipping = new PostnlShipping(this.api);

  checkBooking(request: BookRequest, settings: CarrierSettings): CarrierFieldError[] {
    return checkPostnlBooking(request, this.effectiveSettings(settings));
  }

  book(request: BookRequest, settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): Promise<BookResult> {
    return this.shipping.book(request, settings, options);
  }

  /** PostNL has no cancel call: a label PostNL has not received is released, one it has is refused (postnl.shipping.ts). */
  cancel(
    barcode: string,
    settings: CarrierSettings,
    options?: { now?: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok' } | BookingError> {
    return this.shipping.cancel(barcode, settings, options);
  }

  /** PostNL's label call without confirming: PostNL checks the booking and announces nothing. */
  validateBooking(
    request: BookRequest,
    settings: CarrierSettings,
    options: { now: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok'; warnings?: string[] } | BookingError> {
    return this.shipping.validate(request, settings, options);
  }

  findBooking(request: BookRequest, settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): Promise<FoundBooking> {
    return this.shipping.findBooking(request, settings, options);
  }

  searchPudo(
    query: CarrierPudoQuery,
    settings: CarrierSettings,
    options: { now: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok'; locations: CarrierPudoLocation[] } | CarrierError> {
    return searchLocations(this.api, this.record.id, query, settings, options);
  }

  protected async trackBatch(numbers: string[], context: CallContext): Promise<TrackResult[]> {
    return Promise.all(numbers.map(async (number) => this.trackOne(number, context)));
  }

  private async trackOne(number: string, context: CallContext): Promise<TrackResult> {
    const response = await this.call(context, {
      method: 'GET',
      url: `${context.baseUrl}/shipment/v2/status/barcode/${encodeURIComponent(number)}?detail=true&language=EN`,
      headers: this.headers(context),
    });
    if (isError(response)) return { ...response, tracking_number: number };
    // Not documented for unknown barcodes (PostNL answers those with Warnings in a 200), but plain enough.
    if (response.status === 404) return { status: 'not_found', tracking_number: number };
    if (response.status !== 200) return { ...this.unreadable(context, response), tracking_number: number };
    // The body is this number's alone: the same bytes as the stored answer's are that answer again.
    const unchanged = this.unchangedAnswer(context, number, response.body);
    if (unchanged) return unchanged;
    const body = response.json();
    if (body === undefined) return { ...this.unreadable(context, response), retryable: true, tracking_number: number };
    return mapStatusBody(number, body, {
      code: (codes) => this.code(POSTNL_CODES, codes),
      proofOfDelivery: (barcode) => this.signature(barcode, context),
    });
  }

  private headers(context: CallContext): Record<string, string> {
    return { apikey: String(context.settings.api_key ?? '') };
  }

  /**
   * The recipient's signature, downloaded when the service asks for it: within this credential's limits, as
   * tracking calls are. Its image type is known only once downloaded (PostNL documents GIF, shows PNG), so
   * `content_type` and `file_name` are set then, before the bytes are handed over.
   */
  private signature(barcode: string, context: CallContext): ProofOfDelivery {
    const proof: ProofOfDelivery = {
      reference: `signature:${barcode}`,
      file_name: `${barcode}-signature.png`,
      content_type: 'image/png',
      fetch: async ({ signal }) => {
        const call = { ...context, signal };
        const outcome = await this.gated(call, () =>
          this.call(call, {
            method: 'GET',
            url: `${context.baseUrl}/shipment/v2/status/signature/${encodeURIComponent(barcode)}`,
            headers: this.headers(context),
          }),
        );
        if (isError(outcome)) return outcome;
        if (outcome.status === 404)
          return { status: 'error', retryable: false, message: 'PostNL has no signature for this parcel (HTTP 404)' };
        if (outcome.status !== 200) return this.unreadable(call, outcome, 'signature answer');
        const image = mapSignatureBody(outcome.json());
        if (image.status === 'error') return image;
        proof.content_type = image.content_type;
        proof.file_name = `${barcode}-signature.${EXTENSIONS[image.content_type]}`;
        return { status: 'ok', content: image.content };
      },
    };
    return proof;
  }
}
