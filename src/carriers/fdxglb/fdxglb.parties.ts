import { countryOf, linesOf, personOf, phoneDigits, fieldText as str, weightInTenths, wholeSides } from '../sdk/parties.js';
import type { Json } from './fdxglb.json.js';

/**
 * A phone number as digits ("Minimum length is 10 and supports maximum of 15"; the 10-digit number without the
 * country code 1 in the North American numbering plan). A parcel needs commodities and a commercial invoice when
 * it crosses a customs border (`needsCustoms`). Pounds and inches from the US and Puerto Rico ("The package and
 * commodity weight unit should be the same"), else kg and cm.
 */
export {
  addressAt,
  countryOf,
  crossesCustomsBorder as needsCustoms,
  linesOf,
  personOf,
  phoneDigits,
  usesImperialUnits,
} from '../sdk/parties.js';

/**
 * Our addresses in the shape and limits of FedEx's Ship API (`shipper`, `recipients[]`: `contact` and
 * `address`), units and the customs border. Pure. Limits: the Ship API's schema descriptions (Shipment-Resource).
 *
 * FedEx's shipper is where the parcel leaves from and the recipient where it goes: the sender and recipient of
 * our shipment, for a return too (the consumer ships it back to the merchant, whose account pays).
 */

/** FedEx's limits ("Max length is 35" for street lines, city and company; 70 for a person; 10 for postal codes). */
export const LIMITS = { company: 35, person: 70, line: 35, city: 35, postal: 10, state: 2, phoneMin: 10, phoneMax: 15, email: 80 } as const;

export function companyOf(address: Readonly<Record<string, unknown>>): string {
  return str(address.company);
}

/** The postal code as FedEx takes it: as written, without surrounding spaces (`1015 CJ`, `07001-1234`). */
export function postalOf(address: Readonly<Record<string, unknown>>): string {
  return str(address.postal_code).toUpperCase();
}

/** Where a state or province code is needed ("State code is required for US, CA, PR"). */
export const STATE_COUNTRIES = ['US', 'CA', 'PR'];

/** A FedEx `{contact, address}` of one of our addresses; `residential` for an addressee without a company. */
export function party(address: Readonly<Record<string, unknown>>, options: { residential?: boolean } = {}): Json {
  const person = personOf(address).slice(0, LIMITS.person);
  const company = companyOf(address).slice(0, LIMITS.company);
  const email = str(address.email);
  const state = str(address.state_or_province).toUpperCase();
  const postal = postalOf(address);
  return {
    contact: {
      ...(person ? { personName: person } : {}),
      ...(company ? { companyName: company } : {}),
      phoneNumber: phoneDigits(address),
      ...(email ? { emailAddress: email } : {}),
    },
    address: {
      streetLines: linesOf(address).map((line) => line.text.slice(0, LIMITS.line)),
      city: str(address.city).slice(0, LIMITS.city),
      ...(state && STATE_COUNTRIES.includes(countryOf(address)) ? { stateOrProvinceCode: state } : {}),
      ...(postal ? { postalCode: postal } : {}),
      countryCode: countryOf(address),
      ...(options.residential ? { residential: true } : {}),
    },
  };
}

/** Grams as FedEx's weight value: kg or lb rounded up to a tenth, at least 0.1. */
export function fedexWeight(grams: number, imperial: boolean): number {
  return weightInTenths(grams, imperial);
}

/** Centimetres as FedEx's whole `length`/`width`/`height` ("No implied decimal places"), rounded up, longest first. */
export function fedexDimensions(dimensions: { length: number; width: number; height: number }, imperial: boolean): number[] {
  return wholeSides(dimensions, imperial);
}
