import type { CarrierFieldError } from '../booking.js';

/**
 * Our addresses (the interface's Address record) as PostNL's `Address` and `Contact` of the Labelling API v2_2,
 * with the limits PostNL documents for each field and the path of the field each value came from, so that
 * PostNL's refusals map back to our fields. Pure.
 */

/** A field path of the booking request (`['recipient_address', 'postal_code']`). */
export type FieldPath = Array<string | number>;

/** PostNL's `Address` (without `AddressType`, which the role sets). */
export interface PostnlAddressFields {
  FirstName?: string;
  Name?: string;
  CompanyName?: string;
  Street?: string;
  HouseNr?: string;
  HouseNrExt?: string;
  StreetHouseNrExt?: string;
  Zipcode?: string;
  City?: string;
  Region?: string;
  Countrycode: string;
}

/** PostNL's `Contact` (without `ContactType`). */
export interface PostnlContactFields {
  Email?: string;
  SMSNr?: string;
  TelNr?: string;
}

export interface ReadParty {
  address: PostnlAddressFields;
  contact: PostnlContactFields;
  /** Which of our fields each PostNL field came from (by PostNL's field name; `''` the address itself). */
  origins: Record<string, FieldPath>;
  problems: CarrierFieldError[];
}

/** Member states of the European Union (Parcels EU destinations). */
export const EU = new Set('AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' '));

/** Benelux addresses: PostNL needs the house number apart and the postal code. */
const BENELUX = new Set(['NL', 'BE', 'LU']);

/** Most characters of PostNL's name, company, city and other address texts; a street may be longer. */
const TEXT = 35;
const STREET = 95;

function str(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.replace(/\s+/g, ' ').trim();
  return trimmed === '' ? null : trimmed;
}

/** The country an address is in (alpha-2, upper case), or null. */
export function countryOf(address: Record<string, unknown> | null | undefined): string | null {
  const code = str(address?.country_code)?.toUpperCase() ?? null;
  return code && /^[A-Z]{2}$/.test(code) ? code : null;
}

/** `12`, `12a`, `12-3`, `12 bis` → the number and its addition. */
function splitNumber(text: string): { nr: string; ext: string | null } | null {
  const match = /^(\d{1,5})\s*[-/]?\s*(.*)$/.exec(text);
  if (!match) return null;
  return { nr: match[1], ext: match[2] ? match[2] : null };
}

/** `Keizersgracht 1`, `Keizersgracht 12-3`, `Laan van Meerdervoort 12 bis` → street, number, addition. */
function splitLine(line: string): { street: string; nr: string; ext: string | null } | null {
  const match = /^(.*?[^\d\s].*?)\s+(\d{1,5})(?:\s*[-/]?\s*([A-Za-z0-9]{1,6}(?:\s[A-Za-z0-9]{1,4})?))?$/.exec(line);
  if (!match) return null;
  return { street: match[1], nr: match[2], ext: match[3] ?? null };
}

/** A Dutch postal code as PostNL writes it (`1015CJ`), or null when it is not one. */
function dutchPostalCode(text: string): string | null {
  const compact = text.replace(/\s+/g, '').toUpperCase();
  return /^[1-9][0-9]{3}[A-Z]{2}$/.test(compact) ? compact : null;
}

/** Phone numbers as PostNL takes them: digits with a leading +, 10 to 17 characters. */
function phoneOf(text: string | null): string | null {
  if (!text) return null;
  const compact = text.replace(/[\s().-]/g, '');
  return /^\+?[0-9]{9,16}$/.test(compact) && compact.length >= 10 && compact.length <= 17 ? compact : null;
}

/**
 * One of our addresses as PostNL's `Address` and `Contact`. The company (`CompanyName`) and the person
 * (`FirstName`, `Name`) go apart, as PostNL asks; `street_name` and `house_number` as its street and number,
 * else `line1` split into street, number and addition, else `line1` whole as `StreetHouseNrExt` (PostNL splits
 * it itself). Every limit is checked with the path of our field.
 */
export function readParty(address: Record<string, unknown> | null | undefined, field: string, role: string): ReadParty {
  const problems: CarrierFieldError[] = [];
  const origins: Record<string, FieldPath> = { '': [field] };
  const value: PostnlAddressFields = { Countrycode: '' };
  const contact: PostnlContactFields = {};
  if (!address || typeof address !== 'object') {
    problems.push({ path: [field], message: `PostNL needs this address (the ${role}) to book.` });
    return { address: value, contact, origins, problems };
  }
  const put = (key: keyof PostnlAddressFields, text: string | null, from: FieldPath, max: number, label: string) => {
    if (text === null) return;
    origins[key] = from;
    if (text.length > max) problems.push({ path: from, message: `PostNL takes at most ${max} characters of the ${label}.` });
    value[key] = text.slice(0, max);
  };

  const company = str(address.company);
  const first = str(address.first_name);
  const last = str(address.last_name);
  if (!company && !first && !last)
    problems.push({ path: [field, 'first_name'], message: 'A name or a company is needed on the PostNL label.' });
  put('CompanyName', company, [field, 'company'], TEXT, 'company name');
  put('FirstName', first, [field, 'first_name'], TEXT, 'first name');
  // PostNL's `Name` is the last name; a first name alone goes there too, so that a person is named.
  put('Name', last ?? (company ? null : first), [field, last ? 'last_name' : 'first_name'], TEXT, 'last name');
  if (!last && !company && first) delete value.FirstName;

  const country = countryOf(address);
  if (!country) problems.push({ path: [field, 'country_code'], message: 'The ISO 3166-1 alpha-2 country code is needed for PostNL.' });
  else {
    value.Countrycode = country;
    origins.Countrycode = [field, 'country_code'];
  }
  const benelux = country !== null && BENELUX.has(country);

  const streetName = str(address.street_name);
  const houseNumber = str(address.house_number);
  const line1 = str(address.line1);
  if (streetName) {
    put('Street', streetName, [field, 'street_name'], STREET, 'street');
    const number = houseNumber ? splitNumber(houseNumber) : null;
    if (number) {
      put('HouseNr', number.nr, [field, 'house_number'], 5, 'house number');
      put('HouseNrExt', number.ext, [field, 'house_number'], TEXT, 'house number addition');
    } else if (houseNumber && !benelux) {
      put('HouseNr', houseNumber, [field, 'house_number'], TEXT, 'house number');
    } else if (benelux) {
      problems.push({
        path: [field, 'house_number'],
        message: 'PostNL needs the house number (digits first) of an address in the Benelux.',
      });
    }
  } else if (line1) {
    const parts = splitLine(line1);
    if (parts) {
      put('Street', parts.street, [field, 'line1'], STREET, 'street');
      put('HouseNr', parts.nr, [field, 'line1'], 5, 'house number');
      put('HouseNrExt', parts.ext, [field, 'line1'], TEXT, 'house number addition');
    } else if (benelux && !/\d/.test(line1)) {
      problems.push({ path: [field, 'line1'], message: 'PostNL needs the house number of an address in the Benelux.' });
    } else {
      put('StreetHouseNrExt', line1, [field, 'line1'], STREET, 'street and house number');
    }
  } else {
    problems.push({ path: [field, 'line1'], message: 'A street and house number are needed on the PostNL label.' });
  }

  const postal = str(address.postal_code);
  if (!postal) {
    if (benelux || country === null) problems.push({ path: [field, 'postal_code'], message: 'The postal code is needed for PostNL.' });
  } else if (country === 'NL') {
    const dutch = dutchPostalCode(postal);
    if (!dutch) problems.push({ path: [field, 'postal_code'], message: 'A Dutch postal code is four digits and two letters (1015 CJ).' });
    else put('Zipcode', dutch, [field, 'postal_code'], 6, 'postal code');
  } else if ((country === 'BE' || country === 'LU') && !/^\d{4}$/.test(postal)) {
    problems.push({ path: [field, 'postal_code'], message: 'A Belgian or Luxembourg postal code has four digits.' });
  } else {
    put('Zipcode', postal, [field, 'postal_code'], 17, 'postal code');
  }

  const city = str(address.city);
  if (!city) problems.push({ path: [field, 'city'], message: 'The city is needed on the PostNL label.' });
  put('City', city, [field, 'city'], TEXT, 'city');
  put('Region', str(address.state_or_province), [field, 'state_or_province'], TEXT, 'region');

  const email = str(address.email);
  if (email) {
    if (email.length > 50) problems.push({ path: [field, 'email'], message: 'PostNL takes e-mail addresses of at most 50 characters.' });
    contact.Email = email.slice(0, 50);
    origins.Email = [field, 'email'];
  }
  const phoneText = str(address.phone);
  if (phoneText) {
    const phone = phoneOf(phoneText);
    if (!phone)
      problems.push({ path: [field, 'phone'], message: 'PostNL takes phone numbers of 10 to 17 digits, with the country code (+31…).' });
    else {
      contact.TelNr = phone;
      origins.TelNr = [field, 'phone'];
      // A Dutch mobile number (06…, +316…) is also where PostNL texts the addressee.
      if (/^(\+316|00316|06)\d{8}$/.test(phone)) {
        contact.SMSNr = phone;
        origins.SMSNr = [field, 'phone'];
      }
    }
  }
  return { address: value, contact, origins, problems };
}
