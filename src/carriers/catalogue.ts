import { type BookingProduct, canBook } from './booking.js';
import type { CarrierRegistry } from './registry.js';
import type { CarrierLimits } from './sdk/limits.js';
import type { OperatorCarrierSettings } from './sdk/operator-settings.js';

/** One adapter as the catalogue lists it (`GET /admin/v1/carriers/`, `waybill carriers list`). */
export interface CatalogueEntry {
  id: string;
  name: string;
  countries: string[];
  capabilities: { tracking: boolean; booking: boolean; pudo: boolean; push: boolean };
  environments: string[];
  /** JSON Schema of the settings; secret settings carry `"x-secret": true`. */
  settings_schema: unknown;
  /** Settings this deployment provides (`WAYBILL_CARRIER_<ID>_<SETTING>`): configurations may leave them out. */
  operator_settings: string[];
  /** True when `WAYBILL_CARRIER_<ID>_BASE_URL` sends this carrier's calls elsewhere. */
  base_url_overridden: boolean;
  /** What the carrier books: the codes a shipment's `shipping_service` may hold. */
  products: BookingProduct[];
  /** Most parcels in one booking; null when the carrier does not book. */
  max_parcels: number | null;
  /** What booking offers beyond its products; null when the carrier does not book. */
  booking: {
    /** Whether a product books return labels. */
    returns: boolean;
    /** How a booking is cancelled with this carrier, and until when. */
    cancel: string;
    /** Whether a booking whose answer was lost is looked up at the carrier (else the merchant releases it). */
    lost_answer_lookup: boolean;
    /** Whether `POST /v5/booking/validate/` asks the carrier (else it checks the data only). */
    carrier_validation: boolean;
  } | null;
  limits: CarrierLimits | null;
}

export function carrierCatalogue(registry: CarrierRegistry, operator: OperatorCarrierSettings): CatalogueEntry[] {
  return registry.all().map((adapter) => ({
    id: adapter.record.id,
    name: adapter.record.name,
    countries: adapter.record.country_iso,
    capabilities: { ...adapter.capabilities },
    environments: [...adapter.environments],
    settings_schema: JSON.parse(JSON.stringify(adapter.settingsSchema)),
    operator_settings: Object.keys(operator.defaults(adapter.record.id, Object.keys(adapter.settingsSchema.properties))),
    base_url_overridden: operator.baseUrl(adapter.record.id) !== null,
    products: canBook(adapter) ? (adapter.products ?? []).map((product) => ({ ...product, types: [...product.types] })) : [],
    max_parcels: canBook(adapter) ? (adapter.maxParcels ?? 1) : null,
    booking: canBook(adapter)
      ? {
          // A carrier that lists no products books any service, returns included (the sandbox).
          returns: (adapter.products ?? []).length === 0 || (adapter.products ?? []).some((product) => product.types.includes('return')),
          cancel: adapter.cancellation ?? 'Voided at the carrier.',
          lost_answer_lookup: typeof adapter.findBooking === 'function',
          carrier_validation: typeof adapter.validateBooking === 'function',
        }
      : null,
    limits: adapter.limits ?? null,
  }));
}
