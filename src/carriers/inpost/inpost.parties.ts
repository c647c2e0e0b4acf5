import { countryOf, fieldText as str } from '../sdk/parties.js';

/**
 * Our address fields in ShipX's shape (`SenderForm`/`ReceiverForm`: `company_name`, `first_name`, `last_name`,
 * `email`, `phone`, `address` with `street`, `building_number`, `city`, `post_code`, `country_code`). Pure.
 */

export interface ShipxAddress {
  street: string;
  building_number: string;
  city: string;
  post_code: string;
  country_code: string;
}

export interface ShipxParty {
  company_name?: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  phone?: string;
  address?: ShipxAddress;
}

/** The address stored in a field of the request (sender or recipient), and its country code. */
export { addressAt as addressOf, countryOf } from '../sdk/parties.js';

export function personOf(address: Record<string, unknown>): { first: string; last: string; full: string } {
  const first = str(address.first_name);
  const last = str(address.last_name);
  return { first, last, full: [first, last].filter(Boolean).join(' ') };
}

/** A Polish number as ShipX takes it: 9 digits, without +48 or 0048. Empty when it is no such number. */
export function phoneOf(address: Record<string, unknown>): string {
  let digits = str(address.phone).replace(/\D/g, '');
  if (digits.length === 13 && digits.startsWith('0048')) digits = digits.slice(4);
  if (digits.length === 11 && digits.startsWith('48')) digits = digits.slice(2);
  return /^[1-9][0-9]{8}$/.test(digits) ? digits : '';
}

export function emailOf(address: Record<string, unknown>): string {
  const email = str(address.email);
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? email : '';
}

/** A Polish postal code as ShipX writes it (`00-950`), from `00-950` or `00950`; empty otherwise. */
export function postCodeOf(address: Record<string, unknown>): string {
  const digits = str(address.postal_code).replace(/[\s-]/g, '');
  return /^[0-9]{5}$/.test(digits) ? `${digits.slice(0, 2)}-${digits.slice(2)}` : '';
}

/**
 * Street and building number: `street_name` and `house_number` when given, else `line1` split before its
 * last number (`Marszałkowska 12/4` → `Marszałkowska`, `12/4`). `line2` (a flat, a floor) follows the street.
 * `field` is where a missing number is reported.
 */
export function streetOf(address: Record<string, unknown>): { street: string; building: string; field: string } {
  const extra = str(address.line2);
  const withExtra = (street: string) => [street, extra].filter(Boolean).join(', ');
  const ownStreet = str(address.street_name);
  const ownNumber = str(address.house_number);
  if (ownStreet && ownNumber) return { street: withExtra(ownStreet), building: ownNumber, field: 'house_number' };
  const line = str(address.line1) || ownStreet;
  if (ownNumber && line) return { street: withExtra(line), building: ownNumber, field: 'house_number' };
  const match = /^(.*\S)\s+(\d+[A-Za-z]?(?:\s*[/-]\s*\d+[A-Za-z]?)?)$/.exec(line);
  if (match) return { street: withExtra(match[1]), building: match[2].replace(/\s+/g, ''), field: 'line1' };
  return { street: withExtra(line), building: '', field: 'line1' };
}

/** A party of the shipment in ShipX's form; the address only when asked (a locker's receiver needs none). */
export function shipxParty(address: Record<string, unknown>, withAddress: boolean): ShipxParty {
  const party: ShipxParty = {};
  const company = str(address.company);
  const person = personOf(address);
  if (company) party.company_name = company.slice(0, 255);
  if (person.first) party.first_name = person.first;
  if (person.last) party.last_name = person.last;
  // ShipX wants both names or a company: a single name is written as the first and the last.
  if (!company && person.first && !person.last) party.last_name = person.first;
  if (!company && !person.first && person.last) party.first_name = person.last;
  const email = emailOf(address);
  if (email) party.email = email;
  const phone = phoneOf(address);
  if (phone) party.phone = phone;
  const street = streetOf(address);
  if (withAddress || (street.street && street.building && postCodeOf(address))) {
    party.address = {
      street: street.street,
      building_number: street.building,
      city: str(address.city),
      post_code: postCodeOf(address),
      country_code: countryOf(address),
    };
  }
  return party;
}
