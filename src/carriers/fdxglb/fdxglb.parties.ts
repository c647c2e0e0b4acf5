import type { BookRequest } from '../booking.js';
import type { Json } from './fdxglb.json.js';

/**
 * Our addresses in the shape and limits of FedEx's Ship API (`shipper`, `recipients[]`: `contact` and
 * `address`), units and the customs border. Pure. Limits: the Ship API's schema descriptions (Shipment-Resource).
 *
 * FedEx's shipper is where the parcel leaves from and the recipient where it goes: the sender and recipient of
 * our shipment, for a return too (the consumer ships it back to the merchant, whose account pays).
 */

/** FedEx's limits ("Max length is 35" for street lines, city and company; 70 for a person; 10 for postal codes). */
export const LIMITS = { company: 35, person: 70, line: 35, city: 35, postal: 10, state: 2, phoneMin: 10, phoneMax: 15, email: 80 } as const;

function str(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
}

export function countryOf(address: Readonly<Record<string, unknown>> | null): string {
  return str(address?.country_code).toUpperCase();
}

export function personOf(address: Readonly<Record<string, unknown>>): string {
  return [str(address.first_name), str(address.last_name)].filter(Boolean).join(' ');
}

export function companyOf(address: Readonly<Record<string, unknown>>): string {
  return str(address.company);
}

/** Address lines with the field each comes from: line1 (or street name and house number), line2, line3. */
export function linesOf(address: Readonly<Record<string, unknown>>): Array<{ field: string; text: string }> {
  const first = str(address.line1) || [str(address.street_name), str(address.house_number)].filter(Boolean).join(' ');
  return [
    { field: 'line1', text: first },
    { field: 'line2', text: str(address.line2) },
    { field: 'line3', text: str(address.line3) },
  ].filter((line) => line.text !== '');
}

/** The postal code as FedEx takes it: as written, without surrounding spaces (`1015 CJ`, `07001-1234`). */
export function postalOf(address: Readonly<Record<string, unknown>>): string {
  return str(address.postal_code).toUpperCase();
}

/** Where a state or province code is needed ("State code is required for US, CA, PR"). */
export const STATE_COUNTRIES = ['US', 'CA', 'PR'];

/** The North American numbering plan: FedEx wants the 10-digit number there, without the country code 1. */
const NANP = new Set(['US', 'CA', 'PR', 'VI', 'GU']);

/** A phone number as digits ("Minimum length is 10 and supports maximum of 15"). */
export function phoneDigits(address: Readonly<Record<string, unknown>>): string {
  const digits = str(address.phone).replace(/\D/g, '');
  if (NANP.has(countryOf(address)) && digits.length === 11 && digits.startsWith('1')) return digits.slice(1);
  return digits;
}

/** The address of a field of the request (sender or recipient). */
export function addressAt(request: BookRequest, field: string): Record<string, unknown> | null {
  if (field === request.sender_field) return request.sender;
  if (field === request.recipient_field) return request.recipient;
  return null;
}

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

/** The European Union's customs territory (Monaco included): parcels inside it need no customs papers. */
const EU = new Set('AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE MC'.split(' '));

/** Whether the shipment crosses a customs border, so FedEx needs its commodities and a commercial invoice. */
export function needsCustoms(request: BookRequest): boolean {
  const from = countryOf(request.sender);
  const to = countryOf(request.recipient);
  if (from === '' || to === '' || from === to) return false;
  if ((from === 'US' && to === 'PR') || (from === 'PR' && to === 'US')) return false;
  return !(EU.has(from) && EU.has(to));
}

/** Pounds and inches from the US and Puerto Rico ("The package and commodity weight unit should be the same"), else kg and cm. */
export function usesImperialUnits(shipperCountry: string): boolean {
  return shipperCountry === 'US' || shipperCountry === 'PR';
}

/** Grams as FedEx's weight value: kg or lb rounded up to a tenth, at least 0.1. */
export function fedexWeight(grams: number, imperial: boolean): number {
  const amount = imperial ? grams / 453.59237 : grams / 1000;
  return Math.max(1, Math.ceil(Math.round(amount * 1e6) / 1e5)) / 10;
}

/** Centimetres as FedEx's whole `length`/`width`/`height` ("No implied decimal places"), rounded up, longest first. */
export function fedexDimensions(dimensions: { length: number; width: number; height: number }, imperial: boolean): number[] {
  return [dimensions.length, dimensions.width, dimensions.height]
    .map((cm) => (imperial ? cm / 2.54 : cm))
    .sort((a, b) => b - a)
    .map((side) => Math.max(1, Math.ceil(Math.round(side * 1e6) / 1e6)));
}
