import type { CarrierEventLocation } from '../carrier.js';
import { countryAlpha2, placeOf } from '../sdk/places.js';
import { timezoneOf } from '../sdk/times.js';
import { type DhlAddress, type DhlPlace, record, text } from './dhlglb.payload.js';

/**
 * DHL places: often only `addressLocality` (a city, sometimes with a street or a country glued on) and a
 * country code, sometimes a country alone; parcel shops and lockers add a `servicePoint` label.
 */

/** The ISO alpha-2 country of an address; DHL's `UK` is read as `GB`. */
export function countryOf(address: DhlAddress | null): string | null {
  const code = text(address?.countryCode)?.toUpperCase() ?? null;
  if (code === 'UK') return 'GB';
  return countryAlpha2(code);
}

/**
 * The IANA timezone that places a local time written at this address, or null when the address does not
 * make it unambiguous. Countries with one zone on the mainland use it (overseas territories have their
 * own ISO codes in DHL's data); the Canary Islands and the Azores are told apart by postal code; in the
 * US only a state with a single zone places a time.
 */
export function zoneOf(address: DhlAddress | null): string | null {
  const country = countryOf(address);
  if (!country) return null;
  const postal = text(address?.postalCode)?.replace(/\s+/g, '') ?? '';
  if (country === 'ES' && /^(35|38)\d{3}$/.test(postal)) return 'Atlantic/Canary';
  if (country === 'PT' && /^9[5-9]\d{2}(-?\d{3})?$/.test(postal)) return 'Atlantic/Azores';
  const region = text(address?.addressRegion);
  return timezoneOf(country, region && /^[A-Za-z]{2}$/.test(region) ? region : null, { mainland: true });
}

/** The event location of a DHL place (`place` reads `City, CC`, the service point, or the country), or null. */
export function locationOf(place: DhlPlace | undefined): CarrierEventLocation | null {
  const address = record<DhlAddress>(place?.address);
  const servicePoint = record<{ label?: unknown }>(place?.servicePoint);
  const country = countryOf(address);
  return placeOf({
    facility: text(servicePoint?.label),
    city: text(address?.addressLocality),
    postal_code: text(address?.postalCode),
    state_or_province: text(address?.addressRegion),
    country_code: country,
    timezone: zoneOf(address),
    location_type: servicePoint && text(servicePoint.label) ? 'pickup_point' : null,
  });
}
