import { createRequire } from 'node:module';
import currencyCodes from 'currency-codes';
import countries from 'i18n-iso-countries';
import { parsePhoneNumberFromString } from 'libphonenumber-js';

const require = createRequire(import.meta.url);
// Country names are recognised in the languages merchants most often send; they are stored in English.
for (const lang of ['en', 'de', 'fr', 'nl', 'es', 'it']) countries.registerLocale(require(`i18n-iso-countries/langs/${lang}.json`));
const languages = ['en', 'de', 'fr', 'nl', 'es', 'it'];

export interface Country {
  readonly code: string;
  readonly name: string;
}

/**
 * Every ISO 3166-1 alpha-2 code in use → its country, named in English: made on first use, where the library
 * checked and named the code again for every address and line item of every create.
 */
let byCode: Map<string, Country> | null = null;
function countriesByCode(): Map<string, Country> {
  if (byCode) return byCode;
  byCode = new Map(
    Object.keys(countries.getAlpha2Codes()).map((code) => [code, Object.freeze({ code, name: countries.getName(code, 'en') as string })]),
  );
  return byCode;
}

/** ISO 3166-1 alpha-2 code → the country, or null when it is not a code in use. */
export function countryByCode(code: string): Country | null {
  if (code.length !== 2) return null;
  return countriesByCode().get(code.toUpperCase()) ?? null;
}

/**
 * Every name of every country in the recognised languages, lower-cased, → its code: what a scan of each language
 * in turn finds first (the library's own look-up compares the name with every name of every country, on every
 * address sent with a country name). Made on first use.
 */
let codesByName: Map<string, string> | null = null;
function countryCodesByName(): Map<string, string> {
  if (codesByName) return codesByName;
  const index = new Map<string, string>();
  for (const lang of languages) {
    for (const [code, names] of Object.entries(countries.getNames(lang, { select: 'all' }))) {
      for (const name of names as string[]) {
        const key = name.toLowerCase();
        if (!index.has(key)) index.set(key, code);
      }
    }
  }
  codesByName = index;
  return index;
}

/** A country name (official or common, in a few languages, any case) → the identified country, or null. */
export function countryByName(name: string): Country | null {
  const trimmed = name.trim();
  const code = countryCodesByName().get(trimmed.toLowerCase());
  if (code) return countryByCode(code);
  return trimmed.length === 2 ? countryByCode(trimmed) : null;
}

/** The library's codes in a set: its own look-up compares the code with each of its 180 entries in turn. */
let currencies: ReadonlySet<string> | null = null;

export function isCurrency(code: string): boolean {
  currencies ??= new Set(currencyCodes.codes());
  return /^[A-Z]{3}$/.test(code) && currencies.has(code);
}

/** Numbers checked lately and whether each is one: a merchant's sender number comes with every shipment. */
const checkedPhones = new Map<string, boolean>();
const CHECKED_PHONES_MAX = 4096;

/** `+`, a country calling code and a number that can exist in that numbering plan. */
export function isPhoneNumber(value: string): boolean {
  const known = checkedPhones.get(value);
  if (known !== undefined) return known;
  const possible = /^\+[0-9 ()./-]+$/.test(value) && (parsePhoneNumberFromString(value)?.isPossible() ?? false);
  // Parsing costs tens of microseconds; the answer never changes, so a full map just starts again.
  if (checkedPhones.size >= CHECKED_PHONES_MAX) checkedPhones.clear();
  checkedPhones.set(value, possible);
  return possible;
}
