import { isValidTimeZone, parseEventTime, toLocalDateTime } from '../../core/event-time.js';

/** A time as a recipient reads it, and its machine-readable form (the `datetime` of a `<time>`). */
export interface ShownTime {
  label: string;
  machine: string;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(locale: string): Intl.DateTimeFormat {
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'long', year: 'numeric' });
    dateFormats.set(locale, format);
  }
  return format;
}

function dateTimeFormat(locale: string, timeZone: string): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      timeZone,
      weekday: 'short',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    if (dateTimeFormats.size > 1000) dateTimeFormats.clear();
    dateTimeFormats.set(key, format);
  }
  return format;
}

function offsetLabel(offset: string): string {
  return offset === 'Z' || offset === '+00:00' ? 'UTC' : `UTC${offset}`;
}

/**
 * An event time in the local time of the event:
 * - a date alone stays a date (no invented midnight);
 * - with a known timezone, the instant is shown on that zone's clock, with the zone's offset;
 * - with an offset only, the wall time as written, with that offset;
 * - with neither, the wall time as written.
 * Text that does not parse is shown as it came.
 */
export function showEventTime(text: string, timezone: string | null, locale: string): ShownTime {
  const zone = timezone && isValidTimeZone(timezone) ? timezone : null;
  const parsed = parseEventTime(text, { timezone: zone });
  if (!parsed.ok) return { label: text, machine: text };
  const { time } = parsed;
  if (time.precision === 'date') {
    const date = time.text.slice(0, 10);
    return { label: dateFormat(locale).format(new Date(`${date}T00:00:00Z`)), machine: date };
  }
  if (zone) {
    const instant = new Date(time.utc);
    const label = dateTimeFormat(locale, zone).format(instant);
    return { label: `${label} (${offsetLabel(toLocalDateTime(instant, zone).offset)})`, machine: time.utc };
  }
  // No zone: the wall time the carrier wrote, read as such (the offset, when written, says where it is).
  const wall = new Date(`${time.text.slice(0, 16)}:00Z`);
  const label = dateTimeFormat(locale, 'UTC').format(wall);
  return { label: time.offset ? `${label} (${offsetLabel(time.offset)})` : label, machine: time.utc };
}

/** An expected-delivery end: a date or a date-time, shown like event times. */
export function showWindowEnd(text: string, locale: string): ShownTime {
  return showEventTime(text, null, locale);
}
