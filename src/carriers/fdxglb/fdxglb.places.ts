import type { CarrierEventLocation } from '../carrier.js';
import { placeOf } from '../sdk/places.js';
import { timezoneOf } from '../sdk/times.js';
import type { FedexAddress } from './fdxglb.payload.js';

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/**
 * The IANA timezone of a scan location when its country (or US state) has only one; null otherwise (Canada,
 * Brazil, Mexico, split US states…). FedEx times normally carry their offset, so this only places the rare
 * time without one.
 */
export function scanTimezone(address: FedexAddress | null | undefined): string | null {
  if (!address || typeof address !== 'object') return null;
  return timezoneOf(text(address.countryCode), text(address.stateOrProvinceCode));
}

/**
 * A scan's place: city, state, postal code and country as FedEx gives them; a location id alone (`SEA`) or a
 * country alone still make a place. Null when the scan names no place at all.
 */
export function scanPlace(address: FedexAddress | null | undefined, locationId: unknown): CarrierEventLocation | null {
  const parts = address && typeof address === 'object' ? address : {};
  return placeOf({
    city: text(parts.city),
    state_or_province: text(parts.stateOrProvinceCode),
    postal_code: text(parts.postalCode),
    country_code: text(parts.countryCode),
    code: text(locationId),
    timezone: scanTimezone(address),
  });
}
