import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';
import type { CarrierEventLocation } from '../carrier.js';

export interface PlaceParts {
  /** A facility or hub name (`Louisville Worldport`). */
  facility?: string | null;
  city?: string | null;
  postal_code?: string | null;
  state_or_province?: string | null;
  /** ISO 3166-1 alpha-2, or alpha-3 (converted). */
  country_code?: string | null;
  /** The carrier's location code when that is all it gives (`NLAMS`, `4572`). */
  code?: string | null;
  timezone?: string | null;
  latitude?: number | string | null;
  longitude?: number | string | null;
  location_type?: string | null;
}

const require = createRequire(import.meta.url);
countries.registerLocale(require('i18n-iso-countries/langs/en.json'));

function clean(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const text = value.replace(/\s+/g, ' ').trim();
  return text === '' ? null : text.slice(0, 200);
}

/** ISO alpha-2 from alpha-2 or alpha-3; null when neither. */
export function countryAlpha2(code: string | null | undefined): string | null {
  const text = clean(code)?.toUpperCase() ?? null;
  if (!text) return null;
  if (text.length === 2) return countries.isValid(text) ? text : null;
  if (text.length === 3) return countries.alpha3ToAlpha2(text) ?? null;
  return null;
}

function titleCase(text: string): string {
  // Carriers often shout (`HAMBURG`); places read better as names.
  return text === text.toUpperCase()
    ? text.toLowerCase().replace(/(^|[\s\-'/])(\p{L})/gu, (_, lead, letter) => lead + letter.toUpperCase())
    : text;
}

/**
 * A place from whatever parts a carrier gives: a facility, a city, a code, or only a country. `place`
 * reads `City, CC`, else the facility, else the country's name, else the code; null when nothing is given.
 */
export function placeOf(parts: PlaceParts): CarrierEventLocation | null {
  const countryCode = countryAlpha2(parts.country_code);
  const rawCity = clean(parts.city);
  const city = rawCity ? titleCase(rawCity) : null;
  const facility = clean(parts.facility);
  const code = clean(parts.code);
  const state = clean(parts.state_or_province);
  const postal = clean(parts.postal_code);
  const country = countryCode ? (countries.getName(countryCode, 'en') ?? null) : null;
  const place = city
    ? [city, state && countryCode === 'US' ? state : null, countryCode].filter(Boolean).join(', ')
    : (facility ?? country ?? code);
  if (!place) return null;
  const full = [facility, [postal, city].filter(Boolean).join(' ') || null, state, country].filter(Boolean).join(', ');
  return {
    place,
    full: full || null,
    formatted_address: null,
    location_type: clean(parts.location_type),
    line1: facility,
    line2: null,
    line3: null,
    postal_code: postal,
    city,
    state_or_province: state,
    region: null,
    country,
    country_code: countryCode,
    longitude: clean(parts.longitude),
    latitude: clean(parts.latitude),
    timezone: clean(parts.timezone),
  };
}
