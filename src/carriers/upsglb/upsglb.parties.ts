import type { BookRequest } from '../booking.js';
import { countryOf, personOf, fieldText as str, weightInTenths, wholeSides } from '../sdk/parties.js';

/**
 * Who is who in a UPS shipment, and our address fields in UPS's shape and limits (Shipping.yaml: `Shipper`,
 * `ShipTo`, `ShipFrom`, `AlternateDeliveryAddress`). Pure.
 */

/** UPS's three parties and which of the shipment's address fields each comes from. */
export interface Parties {
  /** The account holder: the merchant (the sender of an outbound shipment, the addressee of a return). */
  shipper: string;
  shipTo: string;
  /** Where the parcel leaves from; for an outbound shipment the Shipper's address (UPS then omits ShipFrom). */
  shipFrom: string;
}

export function partiesOf(request: BookRequest): Parties {
  if (request.type_of_shipment === 'return') {
    return { shipper: request.recipient_field, shipTo: request.recipient_field, shipFrom: request.sender_field };
  }
  return { shipper: request.sender_field, shipTo: request.recipient_field, shipFrom: request.sender_field };
}

/** UPS's limits (Shipping.yaml, `Shipper`/`ShipTo` and their `Address`). */
export const LIMITS = { name: 35, line: 35, city: 30, postal: 9, state: 5, phone: 15, email: 50 } as const;

/** `Name`: the company, else the person. */
export function nameOf(address: Record<string, unknown>): string {
  return str(address.company) || personOf(address);
}

/** `AttentionName`: the person, else the company. */
export function attentionOf(address: Record<string, unknown>): string {
  return personOf(address) || str(address.company);
}

/**
 * The postal code as UPS takes it (at most 9 characters): digits only in the US and PR ("5 or 9 digits"),
 * elsewhere without spaces (`1402SC`, `M5C2M6`).
 */
export function postalOf(address: Record<string, unknown>): string {
  const raw = str(address.postal_code);
  return ['US', 'PR'].includes(countryOf(address)) ? raw.replace(/\D/g, '') : raw.replace(/\s+/g, '').toUpperCase();
}

/**
 * A phone number as UPS takes it: digits only ("Valid values are 0 - 9"); in the US, PR, CA and VI the area code
 * and number without the country code 1 (`phoneDigits`). UPS's "Qualified Domestic Shipment" is a parcel within
 * one customs territory (same country, US and PR, or both inside the EU: `withinCustomsTerritory`); one that
 * crosses a border needs an invoice of its goods (`needsCustoms`). Weights and sizes are in the units of the
 * Shipper's country: "The unit of measurement must be valid for the Shipper country or territory" (Shipping.yaml).
 */
export {
  addressAt,
  countryOf,
  crossesCustomsBorder as needsCustoms,
  inEuCustomsTerritory as inEu,
  linesOf,
  personOf,
  phoneDigits,
  usesImperialUnits,
  withinCustomsTerritory as isDomesticForCustoms,
} from '../sdk/parties.js';

/** Grams as UPS's `Weight` (at most 5 characters): kg or lb rounded up to a tenth, at least 0.1. */
export function upsWeight(grams: number, imperial: boolean): string {
  return weightInTenths(grams, imperial).toFixed(1).replace(/\.0$/, '');
}

/** Centimetres as UPS's whole `Length`/`Width`/`Height`, rounded up, longest side first. */
export function upsDimensions(dimensions: { length: number; width: number; height: number }, imperial: boolean): string[] {
  return wholeSides(dimensions, imperial).map(String);
}
