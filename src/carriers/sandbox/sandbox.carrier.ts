import type { PudoLocationRecord } from '../../domain/pudo/pudo-location.js';
import type { BookingCapable, BookRequest, BookResult, CarrierFieldError, PudoCapable } from '../booking.js';
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
import { sandboxPudoDataset } from './pudo-dataset.js';
import { bookWithSandbox, checkSandboxBooking } from './sandbox.booking.js';
import { mapFileResponse, mapScansResponse } from './sandbox.mapper.js';
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
export class SandboxCarrier implements CarrierAdapter, BookingCapable, PudoCapable {
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

  readonly capabilities: CarrierCapabilities = { tracking: true, booking: true, pudo: true, push: false };

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

  /** Sandbox bookings hold nothing at the carrier, so cancelling always succeeds. */
  async cancel(): Promise<{ status: 'ok' }> {
    return { status: 'ok' };
  }

  pudoLocations(): PudoLocationRecord[] {
    return [...sandboxPudoDataset()];
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
