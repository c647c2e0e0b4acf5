import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';
import type { CarrierFieldError } from '../booking.js';
import type { DhlContactAddress } from './dhlpde.payload.js';

const require = createRequire(import.meta.url);
countries.registerLocale(require('i18n-iso-countries/langs/en.json'));

/** A field path of the booking request (`['recipient_address', 'postal_code']`). */
export type FieldPath = Array<string | number>;

/** Which of our fields each DHL field was filled from, keyed by the DHL field's name: DHL's errors map back through it. */
export type Origins = Record<string, FieldPath>;

/** An address as DHL will get it, where each part came from, and what DHL would refuse in it. */
export interface ReadAddress {
  value: DhlContactAddress;
  origins: Origins;
  problems: CarrierFieldError[];
}

/** The Shipping API's `postalCode` pattern; German postal codes are five digits. */
const POSTAL_CODE = /^[0-9A-Za-z]+([ -]?[0-9A-Za-z]+)*$/;
/** Countries of the EU (but Ireland, whose Eircodes are optional for DHL) where a postal code is always needed. */
const POSTAL_CODE_REQUIRED = new Set(['DE', 'AT', 'BE', 'NL', 'LU', 'FR', 'ES', 'PT', 'IT', 'DK', 'SE', 'FI', 'PL', 'CZ', 'SK', 'HU']);

function str(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.replace(/\s+/g, ' ').trim();
  return trimmed === '' ? null : trimmed;
}

/** ISO 3166-1 alpha-3 of an alpha-2 code (the Shipping API's `Country`), or null. */
export function alpha3(code: string | null | undefined): string | null {
  if (!code || !/^[A-Za-z]{2}$/.test(code)) return null;
  return countries.alpha2ToAlpha3(code.toUpperCase()) ?? null;
}

/** The country an address is in (alpha-2, upper case), or null when it has no valid one. */
export function countryOf(address: Record<string, unknown> | null): string | null {
  const code = str(address?.country_code)?.toUpperCase() ?? null;
  return code && alpha3(code) ? code : null;
}

/** The person's name: first and last name together. */
export function personName(address: Record<string, unknown>): string | null {
  return [str(address.first_name), str(address.last_name)].filter(Boolean).join(' ') || null;
}

/**
 * Our address (the interface's Address record) as DHL's `ContactAddress`: the company (else the person) in
 * `name1`, the person in `name2` when there is a company; `street_name` and `house_number` as DHL's street and
 * house number, else `line1` as the street with its number (DHL recommends both in `addressStreet`); `line2` and
 * `line3` as the additional lines (a consignee's only). Every limit of the Shipping API is checked here, with the path of our field.
 */
export function readAddress(
  address: Record<string, unknown> | null,
  field: string,
  options: { phone: boolean; role: 'shipper' | 'consignee'; lines?: boolean },
): ReadAddress {
  const problems: CarrierFieldError[] = [];
  const origins: Origins = {};
  const value = { name1: '', addressStreet: '', city: '', country: '' } as DhlContactAddress;
  origins[''] = [field];
  if (!address) {
    problems.push({ path: [field], message: `DHL needs this address (the ${options.role}) to book.` });
    return { value, origins, problems };
  }
  const put = <K extends keyof DhlContactAddress>(key: K, text: string | null, from: FieldPath, max: number, label: string) => {
    if (text === null) return;
    origins[key] = from;
    if (text.length > max) problems.push({ path: from, message: `DHL prints at most ${max} characters of the ${label}.` });
    value[key] = text.slice(0, max) as DhlContactAddress[K];
  };

  const company = str(address.company);
  const person = personName(address);
  const personPath = [field, str(address.first_name) ? 'first_name' : 'last_name'];
  if (!company && !person) problems.push({ path: [field, 'first_name'], message: 'A name or a company is needed on the DHL label.' });
  if (company) {
    put('name1', company, [field, 'company'], 50, 'company name');
    put('name2', person, personPath, 50, 'name');
  } else {
    put('name1', person, personPath, 50, 'name');
  }

  const streetName = str(address.street_name);
  const line1 = str(address.line1);
  if (streetName) {
    put('addressStreet', streetName, [field, 'street_name'], 50, 'street');
    put('addressHouse', str(address.house_number), [field, 'house_number'], 10, 'house number');
  } else if (line1) {
    put('addressStreet', line1, [field, 'line1'], 50, 'street and house number');
    origins.addressHouse = [field, 'line1'];
  } else {
    problems.push({ path: [field, 'line1'], message: 'A street and house number are needed on the DHL label.' });
  }
  // The Shipping API's `Shipper` has no additional lines, state or phone: only a consignee carries them.
  const consignee = options.lines ?? options.role === 'consignee';
  if (consignee) {
    put('additionalAddressInformation1', str(address.line2), [field, 'line2'], 60, 'second address line');
    put('additionalAddressInformation2', str(address.line3), [field, 'line3'], 60, 'third address line');
  }

  const country = countryOf(address);
  if (!country) {
    problems.push({ path: [field, 'country_code'], message: 'The ISO 3166-1 alpha-2 country code is needed for DHL.' });
  } else {
    value.country = alpha3(country) as string;
    origins.country = [field, 'country_code'];
  }
  if (country === 'DE' && !str(address.house_number) && !/\d/.test(streetName ?? line1 ?? '')) {
    problems.push({ path: [field, streetName ? 'house_number' : 'line1'], message: 'A German address needs a house number.' });
  }

  const postal = str(address.postal_code);
  if (postal) {
    origins.postalCode = [field, 'postal_code'];
    value.postalCode = postal;
    if (country === 'DE' && !/^\d{5}$/.test(postal)) {
      problems.push({ path: [field, 'postal_code'], message: 'A German postal code has five digits.' });
    } else if (postal.length < 3 || postal.length > 10 || !POSTAL_CODE.test(postal)) {
      problems.push({ path: [field, 'postal_code'], message: 'DHL takes 3 to 10 letters and digits, with single spaces or hyphens.' });
    }
  } else if (country && POSTAL_CODE_REQUIRED.has(country)) {
    problems.push({ path: [field, 'postal_code'], message: 'The postal code is needed for DHL.' });
  }

  const city = str(address.city);
  if (!city) problems.push({ path: [field, 'city'], message: 'The city is needed on the DHL label.' });
  put('city', city, [field, 'city'], 40, 'city');
  if (consignee) put('state', str(address.state_or_province), [field, 'state_or_province'], 20, 'state or province');

  const email = str(address.email);
  if (email && email.length >= 3) put('email', email, [field, 'email'], 80, 'e-mail address');
  if (consignee && options.phone) put('phone', str(address.phone), [field, 'phone'], 20, 'phone number');
  return { value, origins, problems };
}
