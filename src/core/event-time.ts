/**
 * Event times as carriers give them: a date alone, a local date-time without offset, or a date-time
 * with an offset. The original text is kept for output (its precision and offset are information);
 * a normalized UTC instant is computed beside it for ordering only.
 */

/** How much of the time is known: a calendar day, or a moment within it. */
export type TimePrecision = 'date' | 'datetime';

/** A parsed event time. */
export interface EventTime {
  /** The text as given (surrounding whitespace removed): what the API returns. */
  text: string;
  precision: TimePrecision;
  /**
   * The UTC instant for ordering, as `YYYY-MM-DDTHH:mm:ss.sssZ` (sortable as a string). A date alone
   * stands for the start of that day; fractions beyond milliseconds are truncated.
   */
  utc: string;
  /** The offset written in the text, normalized to `Z` or `±HH:MM`; null when the text has none. */
  offset: string | null;
  /** The IANA timezone used to place a local time, or given beside a time with an offset; else null. */
  timezone: string | null;
}

/** The outcome of parsing: a time, or the reason it is not one. Never thrown. */
export type EventTimeResult = { ok: true; time: EventTime } | { ok: false; reason: string };

export interface ParseEventTimeOptions {
  /**
   * IANA timezone of the place where the event happened. Places a time without offset (and a date
   * alone) in that zone; without it such times are read as UTC. Ignored for ordering when the text has
   * its own offset.
   */
  timezone?: string | null;
}

const PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** True when `name` is an IANA timezone this runtime knows (e.g. `Europe/Berlin`, `UTC`). */
export function isValidTimeZone(name: string): boolean {
  if (typeof name !== 'string' || name.trim() === '') return false;
  const known = timeZoneValidity.get(name);
  if (known !== undefined) return known;
  let valid: boolean;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    valid = true;
  } catch {
    valid = false;
  }
  // Creating a formatter is costly; names repeat endlessly, so the answer is kept (bounded, as names come from input).
  if (timeZoneValidity.size > 10_000) timeZoneValidity.clear();
  timeZoneValidity.set(name, valid);
  return valid;
}

const timeZoneValidity = new Map<string, boolean>();

/**
 * Parses an event time of any known precision.
 *
 * - `2026-03-29` → precision `date`, the start of that day in `timezone` (or UTC).
 * - `2026-03-29T10:15`, `2026-03-29T10:15:00`, `2026-03-29T10:15:00.123` → local wall time in
 *   `timezone` (or UTC). A wall time skipped by a DST change is moved forward by the gap; a repeated
 *   one resolves to its first occurrence.
 * - `2026-03-29T10:15:00+02:00`, `…Z`, `…+0200` → the instant the text states.
 *
 * @example parseEventTime('2026-03-29T10:15:00', { timezone: 'Europe/Berlin' })
 *   // → { ok: true, time: { text: '2026-03-29T10:15:00', precision: 'datetime', utc: '2026-03-29T08:15:00.000Z', offset: null, timezone: 'Europe/Berlin' } }
 */
export function parseEventTime(input: string, options: ParseEventTimeOptions = {}): EventTimeResult {
  if (typeof input !== 'string') return { ok: false, reason: 'time must be a string' };
  const text = input.trim();
  const timezone = options.timezone ?? null;
  if (timezone !== null && !isValidTimeZone(timezone)) return { ok: false, reason: `unknown timezone "${timezone}"` };

  const match = PATTERN.exec(text);
  if (!match) {
    return { ok: false, reason: `"${text}" is not a date (YYYY-MM-DD) or an ISO 8601 date-time` };
  }
  const [, y, mo, d, h, mi, s, fraction, offsetText] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12) return { ok: false, reason: `"${text}" has no month ${mo}` };
  if (day < 1 || day > daysInMonth(year, month)) return { ok: false, reason: `"${text}" is not a calendar date` };

  if (h === undefined) {
    const wall = utcMs(year, month, day);
    const instant = timezone ? wallTimeToInstant(wall, timezone) : wall;
    if (!withinFourDigitYears(instant)) return outsideYears(text);
    return { ok: true, time: { text, precision: 'date', utc: toIso(instant), offset: null, timezone } };
  }

  const hour = Number(h);
  const minute = Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (hour > 23 || minute > 59 || second > 59) return { ok: false, reason: `"${text}" is not a valid time of day` };
  const millis = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0'));
  const wall = utcMs(year, month, day, hour, minute, second, millis);

  if (offsetText === undefined) {
    const instant = timezone ? wallTimeToInstant(wall, timezone) : wall;
    if (!withinFourDigitYears(instant)) return outsideYears(text);
    return { ok: true, time: { text, precision: 'datetime', utc: toIso(instant), offset: null, timezone } };
  }
  const offset = parseOffset(offsetText);
  if (offset === null) return { ok: false, reason: `"${text}" has an invalid UTC offset` };
  const instant = wall - offset.minutes * MINUTE_MS;
  if (!withinFourDigitYears(instant)) return outsideYears(text);
  return { ok: true, time: { text, precision: 'datetime', utc: toIso(instant), offset: offset.text, timezone } };
}

/** 0000-01-01T00:00:00Z, the first instant whose UTC text has a four-digit year. */
const FOUR_DIGIT_YEARS_START = -62_167_219_200_000;

/**
 * Whether an instant's UTC time falls in the years 0000–9999: times are kept and compared as UTC text, and one
 * outside them is written `+010000-…` or `-000001-…`, which sorts among the others by its sign, not its time.
 */
function withinFourDigitYears(instant: number): boolean {
  return instant >= FOUR_DIGIT_YEARS_START && instant < FOUR_DIGIT_YEARS_END;
}

function outsideYears(text: string): EventTimeResult {
  return { ok: false, reason: `"${text}" is outside the years 0000–9999 in UTC` };
}

/** Orders parsed times newest first; at the same instant a date-time comes before a date alone. */
export function compareNewestFirst(a: EventTime, b: EventTime): number {
  if (a.utc !== b.utc) return a.utc < b.utc ? 1 : -1;
  if (a.precision !== b.precision) return a.precision === 'datetime' ? -1 : 1;
  return 0;
}

/** Local calendar parts of an instant in a timezone, as the texts a carrier would write. */
export interface LocalDateTime {
  /** `YYYY-MM-DD` */
  date: string;
  /** `HH:MM:SS` */
  time: string;
  /** `±HH:MM` (never `Z`) */
  offset: string;
}

/** The wall-clock date, time and offset of `instant` in the IANA `timeZone`. */
export function toLocalDateTime(instant: Date | number, timeZone: string): LocalDateTime {
  const ms = typeof instant === 'number' ? instant : instant.getTime();
  const offsetMinutes = offsetAt(ms, timeZone);
  const local = new Date(ms + offsetMinutes * MINUTE_MS).toISOString();
  return { date: local.slice(0, 10), time: local.slice(11, 19), offset: formatOffset(offsetMinutes) };
}

/** Minutes east of UTC that `timeZone` observes at `instant` (e.g. 120 for Berlin in summer). */
export function offsetAt(instant: number, timeZone: string): number {
  const clock = clockFor(timeZone);
  const wall = clock.pattern?.exec(clock.formatter.format(instant));
  let asUtc: number;
  if (wall) {
    const { fields } = clock;
    asUtc = utcMs(
      Number(wall[fields.year]),
      Number(wall[fields.month]),
      Number(wall[fields.day]),
      Number(wall[fields.hour]),
      Number(wall[fields.minute]),
      Number(wall[fields.second]),
    );
  } else {
    const parts = clock.formatter.formatToParts(new Date(instant));
    const field = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((part) => part.type === type)?.value);
    asUtc = utcMs(field('year'), field('month'), field('day'), field('hour'), field('minute'), field('second'));
  }
  const wholeSecond = instant - (((instant % 1000) + 1000) % 1000);
  return Math.round((asUtc - wholeSecond) / MINUTE_MS);
}

/**
 * The instant at which the clocks of `timeZone` show `wall` (a wall time written as if it were UTC).
 * The zone's offset a day before and a day after bound the candidates: at most one change of offset
 * happens in between for real zones.
 */
function wallTimeToInstant(wall: number, timeZone: string): number {
  // Each conversion asks the zone's rules three times; carriers repeat the same local times on every poll.
  const key = `${timeZone} ${wall}`;
  const known = instants.get(key);
  if (known !== undefined) return known;
  const instant = computeWallTimeToInstant(wall, timeZone);
  if (instants.size >= 50_000) instants.clear();
  instants.set(key, instant);
  return instant;
}

const instants = new Map<string, number>();

function computeWallTimeToInstant(wall: number, timeZone: string): number {
  const before = offsetAt(wall - DAY_MS, timeZone);
  const after = offsetAt(wall + DAY_MS, timeZone);
  const candidates = [...new Set([wall - before * MINUTE_MS, wall - after * MINUTE_MS])]
    .filter((instant) => instant + offsetAt(instant, timeZone) * MINUTE_MS === wall)
    .sort((a, b) => a - b);
  // Repeated wall time (clocks turned back): the first occurrence. Skipped wall time (clocks turned
  // forward): read with the offset in force before the change, which lands after the gap.
  return candidates[0] ?? wall - before * MINUTE_MS;
}

/** The wall-clock fields `offsetAt` reads, by their group in a zone's `ZoneClock.pattern`. */
type WallFields = Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;

/**
 * A zone's formatter, and the text it writes read back into its fields: `format` costs less than half of
 * `formatToParts`, which builds an object for each part (most of what a carrier's local times and the sandbox's
 * histories cost in `offsetAt`, docs/performance.md). `pattern` is the formatter's own text for a known instant,
 * its numbers made groups and its literals kept as they are, so a text it matches holds the very numbers
 * `formatToParts` would have given; a text it does not match (or a formatter whose parts are not these fields
 * and literals) is read by `formatToParts`.
 */
interface ZoneClock {
  formatter: Intl.DateTimeFormat;
  pattern: RegExp | null;
  fields: WallFields;
}

const clocks = new Map<string, ZoneClock>();

function clockFor(timeZone: string): ZoneClock {
  let clock = clocks.get(timeZone);
  if (!clock) {
    const formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    clock = { formatter, ...textPattern(formatter) };
    clocks.set(timeZone, clock);
  }
  return clock;
}

function textPattern(formatter: Intl.DateTimeFormat): { pattern: RegExp | null; fields: WallFields } {
  const fields: WallFields = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  let source = '^';
  let group = 0;
  for (const part of formatter.formatToParts(Date.UTC(2001, 1, 3, 4, 5, 6))) {
    if (part.type === 'literal') source += part.value.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
    else if (part.type in fields && fields[part.type as keyof WallFields] === 0) {
      fields[part.type as keyof WallFields] = ++group;
      source += '(\\d+)';
    } else return { pattern: null, fields };
  }
  return { pattern: group === 6 ? new RegExp(`${source}$`) : null, fields };
}

function parseOffset(textOffset: string): { minutes: number; text: string } | null {
  if (textOffset === 'Z') return { minutes: 0, text: 'Z' };
  const match = /^([+-])(\d{2}):?(\d{2})?$/.exec(textOffset);
  if (!match) return null;
  const hours = Number(match[2]);
  const minutes = match[3] === undefined ? 0 : Number(match[3]);
  if (hours > 18 || minutes > 59 || hours * 60 + minutes > 18 * 60) return null;
  const total = (match[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
  return { minutes: total, text: formatOffset(total) };
}

function formatOffset(totalMinutes: number): string {
  const sign = totalMinutes < 0 ? '-' : '+';
  const abs = Math.abs(totalMinutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

function daysInMonth(year: number, month: number): number {
  return new Date(utcMs(year, month + 1, 0)).getUTCDate();
}

/** Like `Date.UTC` with a 1-based month, without its mapping of years 0–99 to 1900–1999. */
function utcMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, millis = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  return date.getTime();
}

/** Two-digit texts 00–59 and three-digit 000–999, for `toIso`. */
const TWO = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const THREE = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
/** `YYYY-MM-DDT` of recent days, by day number since the epoch: events fall on few days, and dates are the costly part. */
const dayTexts = new Map<number, string>();
/** The last instant `toISOString` writes with a four-digit year (10000-01-01T00:00:00.000Z is written `+010000-…`). */
const FOUR_DIGIT_YEARS_END = 253_402_300_800_000;

/** `new Date(instant).toISOString()`, with the date of a day seen before kept rather than computed again. */
export function toIso(instant: number): string {
  if (!(instant >= 0 && instant < FOUR_DIGIT_YEARS_END) || !Number.isInteger(instant)) return new Date(instant).toISOString();
  const day = Math.floor(instant / DAY_MS);
  const date = dayTexts.get(day);
  if (date === undefined) {
    const text = new Date(instant).toISOString();
    if (dayTexts.size >= 4_096) dayTexts.clear();
    dayTexts.set(day, text.slice(0, 11));
    return text;
  }
  let rest = instant - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / MINUTE_MS);
  rest -= minutes * MINUTE_MS;
  const seconds = Math.floor(rest / 1000);
  return `${date}${TWO[hours]}:${TWO[minutes]}:${TWO[seconds]}.${THREE[rest - seconds * 1000]}Z`;
}
