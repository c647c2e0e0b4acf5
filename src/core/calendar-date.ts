/**
 * Calendar dates `YYYY-MM-DD` as whole days: the arithmetic of working days, acceptance weeks and analytics
 * periods, exact whatever the timezone of the process and without building `Date` objects on hot paths.
 */

const ZERO = 48;

/** The value of the two digits at `at`, or NaN when they are not digits. */
function twoDigits(text: string, at: number): number {
  const tens = text.charCodeAt(at) - ZERO;
  const ones = text.charCodeAt(at + 1) - ZERO;
  return tens >= 0 && tens <= 9 && ones >= 0 && ones <= 9 ? tens * 10 + ones : Number.NaN;
}

/**
 * Days since 1970-01-01 of a calendar date `YYYY-MM-DD`, exact whatever the timezone of the process (no `Date`
 * involved: this runs for every day a transit is counted over). NaN for anything else; a day past the end of
 * its month rolls over as `Date.parse` does (`2025-02-30` is 2 March), a month past 12 or a day past 31 is NaN.
 */
export function dayNumber(date: string): number {
  if (date.length !== 10 || date.charCodeAt(4) !== 45 || date.charCodeAt(7) !== 45) return Number.NaN;
  const year = twoDigits(date, 0) * 100 + twoDigits(date, 2);
  const month = twoDigits(date, 5);
  const day = twoDigits(date, 8);
  if (!(month >= 1 && month <= 12 && day >= 1 && day <= 31)) return Number.NaN;
  return dayNumberOf(year, month, day);
}

/** Days since 1970-01-01 of a year, month (1–12) and day of month, for any year (`dayNumber` reads 0–9999 only). */
export function dayNumberOf(year: number, month: number, day: number): number {
  // Days from civil (H. Hinnant's algorithm): years start in March so that leap days end them.
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

function pad2(value: number): string {
  return value < 10 ? `0${value}` : `${value}`;
}

/** The calendar date of a day number (the inverse of `dayNumber`), years 0–9999; a RangeError for NaN, as `Date` gives. */
export function dateOfDay(day: number): string {
  if (!Number.isFinite(day)) throw new RangeError('Invalid time value');
  const z = day + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const dayOfMonth = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${year < 1000 ? `${year}`.padStart(4, '0') : year}-${pad2(month)}-${pad2(dayOfMonth)}`;
}

/**
 * The weekday of a calendar date `YYYY-MM-DD` as `Date#getUTCDay` numbers it (0 Sunday … 6 Saturday), NaN when
 * the text is not such a date. Calendars read it for every day they are asked about, so it parses the digits
 * itself instead of building a `Date`.
 */
export function weekdayOf(date: string): number {
  const day = dayNumber(date);
  return (((day + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday
}

/** The calendar date `days` after `date`. */
export function addCalendarDays(date: string, days: number): string {
  return dateOfDay(dayNumber(date) + days);
}

/** The Monday of the ISO week of a calendar date (weeks run Monday to Sunday). */
export function mondayOf(date: string): string {
  const day = dayNumber(date);
  return dateOfDay(day - ((((day + 3) % 7) + 7) % 7)); // 1970-01-01 was a Thursday: day 0 is 3 days after a Monday
}
