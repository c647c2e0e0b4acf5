import Holidays from 'date-holidays';
import { addCalendarDays } from './working-calendar.js';

/**
 * Public holidays per country (ISO 3166-1 alpha-2) and optionally region (the subdivision part of ISO 3166-2:
 * `BY` or `DE-BY`), from `date-holidays` (docs/dependencies.md says why and under which licence).
 *
 * Only holidays of type `public` count: bank holidays, observances and school holidays are working days for
 * carriers (Germany's Heiligabend afternoon, the US's Valentine's Day). A holiday that lasts several days (Korea's
 * Seollal, Russia's New Year holidays) covers each of its days; one that begins at noon or later on its date
 * (Iceland's Christmas Eve from 13:00) leaves that morning's deliveries alone and does not count. Substitute days
 * (a US holiday on a Sunday observed on Monday) are public holidays of their own in the library and count.
 *
 * A country the library does not know has no holidays; a region it does not know has the country's national ones.
 */
export class PublicHolidays {
  /** The dates of each year, built on first use (a few milliseconds a year). */
  private readonly years = new Map<number, ReadonlySet<string>>();
  /** Every date covered by the holidays the library lists under a year (a span may run into the next one). */
  private readonly listed = new Map<number, readonly string[]>();
  /** The year asked last and its dates: consecutive questions are nearly always about the same year. */
  private lastYear = Number.NaN;
  private lastDates: ReadonlySet<string> = new Set();

  constructor(
    private readonly source: Holidays | null,
    /** Upper-case country code, or '' for the calendar of no country. */
    readonly country: string,
    /** Upper-case region code as the library knows it (`BY`), or null for the national holidays. */
    readonly region: string | null,
  ) {}

  /** Whether `date` (`YYYY-MM-DD`) is a public holiday. Costs a map and a set lookup once its year is built. */
  has(date: string): boolean {
    if (this.source === null) return false;
    const year = yearOf(date);
    if (year !== this.lastYear) {
      this.lastDates = this.ofYear(year);
      this.lastYear = year;
    }
    return this.lastDates.has(date);
  }

  /** The public holidays falling in `year`, as dates `YYYY-MM-DD`. */
  ofYear(year: number): ReadonlySet<string> {
    const known = this.years.get(year);
    if (known) return known;
    const prefix = `${year}-`;
    const dates = new Set<string>();
    if (this.source !== null && Number.isInteger(year) && year >= 1 && year <= 9999) {
      for (const date of [...this.listedUnder(year - 1), ...this.listedUnder(year)]) if (date.startsWith(prefix)) dates.add(date);
    }
    this.years.set(year, dates);
    return dates;
  }

  private listedUnder(year: number): readonly string[] {
    const known = this.listed.get(year);
    if (known) return known;
    const dates: string[] = [];
    if (this.source !== null && year >= 1) {
      for (const holiday of this.source.getHolidays(year) || []) {
        if (holiday.type !== 'public') continue;
        // `date` is local: `2025-12-25 00:00:00`, `2025-03-30 00:00:00 -0600` (from sunset the evening before),
        // `2025-12-24 13:00:00` (from 13:00).
        const first = holiday.date.slice(0, 10);
        const startsAfternoon = Number(holiday.date.slice(11, 13)) >= 12;
        const days = Math.max(1, Math.round((holiday.end.getTime() - holiday.start.getTime()) / 86_400_000));
        for (let offset = startsAfternoon ? 1 : 0; offset < days; offset++) dates.push(addCalendarDays(first, offset));
      }
    }
    this.listed.set(year, dates);
    return dates;
  }
}

/** The year of a date `YYYY-MM-DD` read from its first four digits (no substring), NaN when they are not digits. */
function yearOf(date: string): number {
  let year = 0;
  for (let at = 0; at < 4; at++) {
    const digit = date.charCodeAt(at) - 48;
    if (!(digit >= 0 && digit <= 9)) return Number.NaN;
    year = year * 10 + digit;
  }
  return year;
}

const NO_HOLIDAYS = new PublicHolidays(null, '', null);
/** Calendars by `COUNTRY|REGION` (`DE|` national), only for codes the library knows, so the map stays small. */
const calendars = new Map<string, PublicHolidays>();
/** The region codes of each country the library knows (empty for countries without regions). */
let regions: ReadonlyMap<string, ReadonlySet<string>> | null = null;

function regionsOf(country: string): ReadonlySet<string> | undefined {
  if (regions === null) {
    const all = new Holidays();
    regions = new Map(Object.keys(all.getCountries()).map((code) => [code, new Set(Object.keys(all.getStates(code) ?? {}))]));
  }
  return regions.get(country);
}

function calendarOf(country: string, region: string | null): PublicHolidays {
  const key = `${country}|${region ?? ''}`;
  let calendar = calendars.get(key);
  if (!calendar) {
    calendar = new PublicHolidays(region ? new Holidays(country, region) : new Holidays(country), country, region);
    calendars.set(key, calendar);
  }
  return calendar;
}

/**
 * The public holidays of a country and region, one object per pair for the life of the process (the calendars
 * of every carrier delivering there share it). Codes are case-insensitive; null or an unknown country gives a
 * calendar without holidays.
 */
export function publicHolidaysOf(country: string | null | undefined, region?: string | null): PublicHolidays {
  if (!country) return NO_HOLIDAYS;
  const code = country.trim().toUpperCase();
  const known = regionsOf(code);
  if (!known) return NO_HOLIDAYS;
  let subdivision = region ? region.trim().toUpperCase() : null;
  if (subdivision?.startsWith(`${code}-`)) subdivision = subdivision.slice(code.length + 1);
  return calendarOf(code, subdivision !== null && known.has(subdivision) ? subdivision : null);
}

/** The public holidays of a country (and region) in `year`, as dates `YYYY-MM-DD`. */
export function publicHolidays(country: string | null | undefined, year: number, region?: string | null): ReadonlySet<string> {
  return publicHolidaysOf(country, region).ofYear(year);
}

/** Whether `date` (`YYYY-MM-DD`) is a public holiday in the country (and region). */
export function isPublicHoliday(date: string, country: string | null | undefined, region?: string | null): boolean {
  return publicHolidaysOf(country, region).has(date);
}
