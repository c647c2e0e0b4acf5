import { Type } from '@sinclair/typebox';
import type { PudoLocationRecord } from '../../core/pudo-location.js';
import type { BookingCapable, BookRequest, BookResult, CarrierFieldError, FoundBooking, PudoCapable } from '../booking.js';
import type {
  CarrierAdapter,
  CarrierCapabilities,
  CarrierRecord,
  CarrierSettings,
  ProofOfDelivery,
  TrackOptions,
  TrackRequest,
  TrackResult,
} from '../carrier.js';
import type { PushCapable, PushUpdate } from '../push.js';
import { PollIntervalSetting, secret } from '../sdk/settings.js';
import { sandboxPudoDataset } from './pudo-dataset.js';
import { bookWithSandbox, checkSandboxBooking, findSandboxBooking, SANDBOX_MAX_PARCELS } from './sandbox.booking.js';
import { isShipmentPayload, mapFileResponse, mapScansResponse } from './sandbox.mapper.js';
import type { SandboxShipmentPayload } from './sandbox.payload.js';
import { SandboxTransport } from './sandbox.transport.js';

/** Settings of a sandbox carrier configuration. */
export interface SandboxSettings {
  /** Seconds between steps of the live (`WB8…`) scenario; default 60. */
  step_seconds: number;
}

export const DEFAULT_STEP_SECONDS = 60;

/** Reads the sandbox settings; a wrong value is reported, not guessed around. */
export function readSandboxSettings(settings: CarrierSettings): { ok: true; settings: SandboxSettings } | { ok: false; message: string } {
  const stepSeconds = settings.step_seconds ?? DEFAULT_STEP_SECONDS;
  if (typeof stepSeconds !== 'number' || !Number.isFinite(stepSeconds) || stepSeconds <= 0) {
    return { ok: false, message: 'Sandbox setting step_seconds must be a positive number of seconds' };
  }
  return { ok: true, settings: { step_seconds: stepSeconds } };
}

/**
 * The simulated carrier: everything a merchant can do against a real carrier can be tried here.
 * Tracking numbers choose their story by prefix (see docs/sandbox.md); the same number always tells
 * the same story, counted from when it was first polled.
 */
export class SandboxCarrier implements CarrierAdapter, BookingCapable, PudoCapable, PushCapable {
  static readonly id = 'sandbx';

  readonly record: CarrierRecord = {
    id: SandboxCarrier.id,
    name: 'Waybill Sandbox',
    country_iso: ['DE', 'NL', 'FR', 'GB', 'US', 'SG'],
    language: ['en'],
    supported_languages: ['en'],
    contact: null,
    site_link: null,
  };

  readonly capabilities: CarrierCapabilities = { tracking: true, booking: true, pudo: true, push: true };

  readonly settingsSchema = Type.Object({
    step_seconds: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, description: 'Seconds between steps of the live (WB8…) scenario; default 60' }),
    ),
    label_format: Type.Optional(
      Type.Union([Type.Literal('pdf'), Type.Literal('png'), Type.Literal('zpl')], { description: 'Default label format' }),
    ),
    poll_interval_seconds: PollIntervalSetting,
    api_key: Type.Optional(
      secret(Type.String({ minLength: 1, description: 'Not used by the sandbox: lets a merchant rehearse storing a credential' })),
    ),
  });

  readonly environments = ['sandbox'] as const;

  /** Its events were stored with the first key formula; keeping it stores none of them twice. */
  readonly legacyEventKeys = true;

  constructor(private readonly transport: SandboxTransport = new SandboxTransport()) {}

  async track(requests: readonly TrackRequest[], settings: CarrierSettings, options: TrackOptions): Promise<TrackResult[]> {
    const read = readSandboxSettings(settings);
    return Promise.all(
      requests.map(async (request): Promise<TrackResult> => {
        const trackingNumber = request.tracking_number;
        if (!read.ok) return { status: 'error', tracking_number: trackingNumber, retryable: false, message: read.message };
        if (options.signal?.aborted)
          return { status: 'error', tracking_number: trackingNumber, retryable: true, message: 'Tracking call aborted' };
        const firstPolledAt = new Date(request.first_polled_at);
        if (Number.isNaN(firstPolledAt.getTime())) {
          return { status: 'error', tracking_number: trackingNumber, retryable: false, message: 'first_polled_at is not a valid time' };
        }
        const response = await this.transport.fetchScans({
          trackingNumber,
          firstPolledAt,
          attempt: request.attempt,
          now: options.now,
          stepSeconds: read.settings.step_seconds,
        });
        return mapScansResponse(trackingNumber, response, (documentId) => this.proofOfDelivery(documentId));
      }),
    );
  }

  checkBooking(request: BookRequest, settings: CarrierSettings): CarrierFieldError[] {
    return checkSandboxBooking(request, settings);
  }

  book(request: BookRequest, settings: CarrierSettings): Promise<BookResult> {
    return bookWithSandbox(request, settings, this.record.name);
  }

  readonly maxParcels = SANDBOX_MAX_PARCELS;
  readonly cancellation = 'Always voided at once: the sandbox keeps no parcel.';

  /** Finds the simulated bookings whose answer was lost (`carrier_metadata.simulate: "answer_lost"`). */
  findBooking(request: BookRequest, settings: CarrierSettings): Promise<FoundBooking> {
    return findSandboxBooking(request, settings, this.record.name);
  }

  /** Sandbox bookings hold nothing at the carrier, so cancelling always succeeds. */
  async cancel(): Promise<{ status: 'ok' }> {
    return { status: 'ok' };
  }

  pudoLocations(): PudoLocationRecord[] {
    return [...sandboxPudoDataset()];
  }

  /**
   * The sandbox pushes its own scans payload (as `GET …/scans` answers), one shipment or
   * `{"shipments": [...]}` for several.
   */
  parsePush(body: unknown): { ok: true; updates: PushUpdate[] } | { ok: false; message: string } {
    const list =
      body && typeof body === 'object' && Array.isArray((body as { shipments?: unknown }).shipments)
        ? (body as { shipments: unknown[] }).shipments
        : [body];
    if (list.length === 0 || list.length > 500) return { ok: false, message: 'Send 1 to 500 shipments per push.' };
    const updates: PushUpdate[] = [];
    for (const [index, item] of list.entries()) {
      if (!isPushedShipment(item)) return { ok: false, message: `Shipment ${index} is not a sandbox scans payload.` };
      let result: TrackResult;
      try {
        result = mapScansResponse(item.trackingNumber, { outcome: 'response', status: 200, headers: {}, body: item }, (documentId) =>
          this.proofOfDelivery(documentId),
        );
      } catch {
        return { ok: false, message: `Shipment ${index} could not be read.` };
      }
      updates.push({ tracking_number: item.trackingNumber, result });
    }
    return { ok: true, updates };
  }

  private proofOfDelivery(documentId: string): ProofOfDelivery {
    return {
      reference: documentId,
      file_name: `${documentId}.png`,
      content_type: 'image/png',
      fetch: async () => mapFileResponse(await this.transport.fetchProofOfDelivery(documentId)),
    };
  }
}

const isText = (value: unknown, max: number) => typeof value === 'string' && value.length > 0 && value.length <= max;

/** A pushed body comes from outside: every field the mapper reads is checked first. */
function isPushedShipment(item: unknown): item is SandboxShipmentPayload {
  if (!isShipmentPayload(item) || !isText(item.trackingNumber, 64) || item.scans.length > 1000) return false;
  return item.scans.every((scan) => {
    if (!scan || typeof scan !== 'object' || !isText(scan.code, 10) || !isText(scan.text, 500) || !isText(scan.date, 10)) return false;
    if (scan.time !== null && scan.time !== undefined && !isText(scan.time, 12)) return false;
    const place = scan.location;
    if (place === null || place === undefined) return true;
    return (
      typeof place === 'object' &&
      isText(place.city, 100) &&
      isText(place.countryCode, 2) &&
      isText(place.tz, 64) &&
      Number.isFinite(place.lat) &&
      Number.isFinite(place.lon)
    );
  });
}
