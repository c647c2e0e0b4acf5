import { type EventTimeResult, parseEventTime } from '../../core/event-time.js';

const LOOSE = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{1,2})(?::(\d{1,2})(\.\d+)?)?(.*))?$/;

/**
 * A date or date-time of a list filter, as clients build them by joining numbers: `2027-1-5`,
 * `2027-1-5T9:5:0` and `2027-01-05 09:05` mean `2027-01-05T09:05:00`. An offset whose `+` arrived as a space
 * (a `+` left unencoded in a query string reads as one) counts as `+`. Anything else is parsed as written.
 */
export function parseFilterTime(input: string): EventTimeResult {
  const match = LOOSE.exec(input.trim());
  if (!match) return parseEventTime(input);
  const [, year, month, day, hour, minute, second, fraction, rest] = match;
  const pad = (part: string) => part.padStart(2, '0');
  let text = `${year}-${pad(month)}-${pad(day)}`;
  if (hour !== undefined) {
    text += `T${pad(hour)}:${pad(minute)}`;
    if (second !== undefined) text += `:${pad(second)}${fraction ?? ''}`;
    text += rest.replace(/^ (?=\d{2}(?::?\d{2})?$)/, '+');
  }
  return parseEventTime(text);
}
