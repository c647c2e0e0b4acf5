import { DhlUnifiedCarrier } from '../dhlglb/dhlglb.carrier.js';
import { OperatorCarrierSettings } from '../sdk/operator-settings.js';
import type { CarrierToolkit } from '../sdk/toolkit.js';

/**
 * The operator's settings as the tracking adapter reads them for DHL Parcel DE: its calls go where this
 * carrier's go (`WAYBILL_CARRIER_DHLPDE_BASE_URL`), not where the DHL tracking carrier's go.
 */
class TrackingOperatorSettings extends OperatorCarrierSettings {
  constructor(
    private readonly operator: OperatorCarrierSettings,
    private readonly trackerId: string,
    private readonly carrierId: string,
  ) {
    super({});
  }

  override baseUrl(carrierId: string): string | null {
    return this.operator.baseUrl(carrierId === this.trackerId ? this.carrierId : carrierId);
  }

  override defaults(carrierId: string, known: readonly string[]): Record<string, string> {
    return this.operator.defaults(carrierId, known);
  }

  override values(): string[] {
    return this.operator.values();
  }
}

/**
 * The DHL Unified Tracking adapter (`dhlglb`) as this carrier's tracker: a booked DHL Paket number is tracked
 * through Shipment Tracking – Unified with `service=parcel-de` and the configuration's API key. It shares the
 * toolkit (transport, limits per credential, metrics), so one key's tracking quota is counted once.
 */
export function parcelDeTracker(kit: CarrierToolkit, carrierId: string): DhlUnifiedCarrier {
  return new DhlUnifiedCarrier({ ...kit, operator: new TrackingOperatorSettings(kit.operator, DhlUnifiedCarrier.id, carrierId) });
}

/** The tracker's settings for a DHL Parcel DE configuration: its API key, Parcel Germany's records first. */
export function trackingSettings(settings: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return {
    ...(typeof settings.api_key === 'string' ? { api_key: settings.api_key } : {}),
    service: 'parcel-de',
    ...(typeof settings.poll_interval_seconds === 'number' ? { poll_interval_seconds: settings.poll_interval_seconds } : {}),
  };
}
