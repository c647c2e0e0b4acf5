/**
 * The time formats carriers use, turned into the texts `parseEventTime` reads: `YYYY-MM-DDTHH:mm[:ss]`
 * with an offset when the carrier gives one, without it (plus an IANA timezone beside it) when not.
 * Every helper returns null for text it cannot read; none throws.
 */

/** `-7:00` → `-07:00`, `+0200` → `+02:00`, `Z` → `Z`; null when unreadable. */
export function normalizeOffset(offset: string | null | undefined): string | null {
  if (typeof offset !== 'string') return null;
  const text = offset.trim();
  if (text === 'Z' || text === 'z') return 'Z';
  const match = /^([+-])(\d{1,2}):?(\d{2})?$/.exec(text);
  if (!match) return null;
  const hours = Number(match[2]);
  const minutes = Number(match[3] ?? '0');
  if (hours > 14 || minutes > 59) return null;
  return `${match[1]}${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

function two(value: string): string {
  return value.padStart(2, '0');
}

function validDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function validClock(hours: number, minutes: number, seconds: number): boolean {
  return hours <= 23 && minutes <= 59 && seconds <= 59;
}

/**
 * Composes separate date, time and offset fields (UPS: `20261103` + `143000` + `-05:00`). The time may
 * be `HHMMSS`, `HHMM`, `HH:MM[:SS]`; without a time the result is a date alone.
 */
export function composeDateTime(date: string | null | undefined, time?: string | null, offset?: string | null): string | null {
  const d = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec((date ?? '').trim());
  if (!d || !validDate(Number(d[1]), Number(d[2]), Number(d[3]))) return null;
  const day = `${d[1]}-${d[2]}-${d[3]}`;
  const clockText = (time ?? '').trim();
  if (clockText === '') return day;
  const t = /^(\d{2}):?(\d{2})(?::?(\d{2}))?$/.exec(clockText);
  if (!t || !validClock(Number(t[1]), Number(t[2]), Number(t[3] ?? '0'))) return null;
  const zone = offset === undefined || offset === null || offset.trim() === '' ? '' : normalizeOffset(offset);
  if (zone === null) return null;
  return `${day}T${t[1]}:${t[2]}:${t[3] ?? '00'}${zone}`;
}

/** Day-first local times: `dd.MM.yyyy HH:mm[:ss]` (DHL Parcel DE) or `dd-MM-yyyy HH:mm:ss` (PostNL); a date alone too. */
export function fromDayFirst(text: string | null | undefined): string | null {
  const match = /^(\d{1,2})[.\-/](\d{1,2})[.\-/](\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec((text ?? '').trim());
  if (!match) return null;
  const [, d, m, y, h, mi, s] = match;
  if (!validDate(Number(y), Number(m), Number(d))) return null;
  const day = `${y}-${two(m)}-${two(d)}`;
  if (h === undefined) return day;
  if (!validClock(Number(h), Number(mi), Number(s ?? '0'))) return null;
  return `${day}T${two(h)}:${mi}:${s ?? '00'}`;
}

/**
 * An ISO 8601 text as carriers write it, made strict: a space instead of `T`, `+0200` offsets,
 * `-7:00` offsets, fractions. Returns the same instant in a form `parseEventTime` reads.
 */
export function fromIsoLike(text: string | null | undefined): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?\s*(Z|z|[+-]\d{1,2}(?::?\d{2})?)?)?$/.exec(
    (text ?? '').trim(),
  );
  if (!match) return null;
  const [, y, mo, d, h, mi, s, fraction, offset] = match;
  if (!validDate(Number(y), Number(mo), Number(d))) return null;
  const day = `${y}-${mo}-${d}`;
  if (h === undefined) return day;
  if (!validClock(Number(h), Number(mi), Number(s ?? '0'))) return null;
  const zone = offset === undefined ? '' : normalizeOffset(offset);
  if (zone === null) return null;
  return `${day}T${h}:${mi}:${s ?? '00'}${fraction ?? ''}${zone}`;
}

/** Countries in one timezone (mainland and everything else), where the country alone places a local time. */
const SINGLE_ZONE: Readonly<Record<string, string>> = {
  AT: 'Europe/Vienna',
  BE: 'Europe/Brussels',
  BG: 'Europe/Sofia',
  CH: 'Europe/Zurich',
  CZ: 'Europe/Prague',
  DE: 'Europe/Berlin',
  DK: 'Europe/Copenhagen',
  EE: 'Europe/Tallinn',
  FI: 'Europe/Helsinki',
  GB: 'Europe/London',
  GR: 'Europe/Athens',
  HR: 'Europe/Zagreb',
  HU: 'Europe/Budapest',
  IE: 'Europe/Dublin',
  IT: 'Europe/Rome',
  LT: 'Europe/Vilnius',
  LU: 'Europe/Luxembourg',
  LV: 'Europe/Riga',
  NO: 'Europe/Oslo',
  PL: 'Europe/Warsaw',
  RO: 'Europe/Bucharest',
  SE: 'Europe/Stockholm',
  SI: 'Europe/Ljubljana',
  SK: 'Europe/Bratislava',
  CN: 'Asia/Shanghai',
  HK: 'Asia/Hong_Kong',
  IN: 'Asia/Kolkata',
  IL: 'Asia/Jerusalem',
  JP: 'Asia/Tokyo',
  KR: 'Asia/Seoul',
  SG: 'Asia/Singapore',
  TW: 'Asia/Taipei',
  TH: 'Asia/Bangkok',
  TR: 'Europe/Istanbul',
  AE: 'Asia/Dubai',
  ZA: 'Africa/Johannesburg',
  NZ: 'Pacific/Auckland',
};

/**
 * US states (and DC) wholly in one timezone. States split between zones (e.g. TX, FL, TN, KY, IN, MI,
 * ND, SD, NE, KS, ID, OR) are left out: a state alone does not place their local times.
 */
const US_STATES: Readonly<Record<string, string>> = {
  AL: 'America/Chicago',
  AK: 'America/Anchorage',
  AZ: 'America/Phoenix',
  AR: 'America/Chicago',
  CA: 'America/Los_Angeles',
  CO: 'America/Denver',
  CT: 'America/New_York',
  DC: 'America/New_York',
  DE: 'America/New_York',
  GA: 'America/New_York',
  HI: 'Pacific/Honolulu',
  IL: 'America/Chicago',
  IA: 'America/Chicago',
  LA: 'America/Chicago',
  ME: 'America/New_York',
  MD: 'America/New_York',
  MA: 'America/New_York',
  MN: 'America/Chicago',
  MS: 'America/Chicago',
  MO: 'America/Chicago',
  MT: 'America/Denver',
  NV: 'America/Los_Angeles',
  NH: 'America/New_York',
  NJ: 'America/New_York',
  NM: 'America/Denver',
  NY: 'America/New_York',
  NC: 'America/New_York',
  OH: 'America/New_York',
  OK: 'America/Chicago',
  PA: 'America/New_York',
  RI: 'America/New_York',
  SC: 'America/New_York',
  UT: 'America/Denver',
  VT: 'America/New_York',
  VA: 'America/New_York',
  WA: 'America/Los_Angeles',
  WV: 'America/New_York',
  WI: 'America/Chicago',
  WY: 'America/Denver',
  PR: 'America/Puerto_Rico',
};

/**
 * The IANA timezone of a place when its country (or, in the US, its state) has exactly one; null when it
 * is ambiguous. Spain, Portugal, France and the Netherlands have overseas zones, but carriers' local
 * times there are the mainland's unless stated: they are given with `mainland: true` only.
 */
export function timezoneOf(
  countryCode: string | null | undefined,
  region?: string | null,
  options: { mainland?: boolean } = {},
): string | null {
  const country = (countryCode ?? '').trim().toUpperCase();
  if (country === 'US') return US_STATES[(region ?? '').trim().toUpperCase()] ?? null;
  if (options.mainland) {
    const mainland: Record<string, string> = { ES: 'Europe/Madrid', PT: 'Europe/Lisbon', FR: 'Europe/Paris', NL: 'Europe/Amsterdam' };
    if (mainland[country]) return mainland[country];
  }
  return SINGLE_ZONE[country] ?? null;
}
