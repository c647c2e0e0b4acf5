import { timezoneOf } from '../../carriers/sdk/times.js';
import { isValidTimeZone, parseEventTime, toLocalDateTime } from '../../core/event-time.js';

/**
 * Quiet hours: no consumer SMS at night in the recipient's own time zone. A message due then waits until
 * the morning. The rule is the recipient's wall clock, so daylight-saving changes move the instant, never
 * the local hour.
 */

export interface QuietHours {
  /** Local hour (0-23) quiet hours begin, inclusive; default 21 (21:00). */
  startHour?: number;
  /** Local hour (0-23) they end, exclusive; default 8 (08:00). */
  endHour?: number;
}

function checkHour(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0 || value > 23) throw new RangeError(`${name} must be a whole hour from 0 to 23, not ${value}`);
}

/** `YYYY-MM-DD` one calendar day after `date`. */
function nextDay(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/**
 * The instant quiet hours end when `now` is inside them in `timeZone`, else null.
 *
 * - Inside means a local hour in [startHour, endHour), across midnight when startHour > endHour (21-8:
 *   21:00 to 07:59:59). startHour === endHour means no quiet hours.
 * - The end is endHour:00 local on the same morning (after midnight) or the next one (before midnight).
 *   If a daylight-saving change skips that wall time, the end moves forward by the gap.
 * - A null, unknown or invalid zone is treated as not quiet (null): without a zone there is no local
 *   night to respect, and holding messages forever would be worse than sending one at an odd hour.
 *
 * @throws RangeError when an hour is not a whole number from 0 to 23.
 */
export function quietHoursEnd(now: Date, timeZone: string | null, { startHour = 21, endHour = 8 }: QuietHours = {}): Date | null {
  checkHour('startHour', startHour);
  checkHour('endHour', endHour);
  if (startHour === endHour || !timeZone || !isValidTimeZone(timeZone) || Number.isNaN(now.getTime())) return null;
  const local = toLocalDateTime(now, timeZone);
  const hour = Number(local.time.slice(0, 2));
  const overnight = startHour > endHour;
  const quiet = overnight ? hour >= startHour || hour < endHour : hour >= startHour && hour < endHour;
  if (!quiet) return null;
  // Before midnight of an overnight window, the end is tomorrow morning; otherwise later today.
  const endDate = overnight && hour >= startHour ? nextDay(local.date) : local.date;
  const parsed = parseEventTime(`${endDate}T${String(endHour).padStart(2, '0')}:00:00`, { timezone: timeZone });
  return parsed.ok ? new Date(parsed.time.utc) : null;
}

/**
 * The IANA zone of a country that has one (`DE` → `Europe/Berlin`), else null (US, CA, AU, RU, BR, MX...:
 * several zones, and a phone number does not say which).
 *
 * Reuses the carriers' table (`timezoneOf` in src/carriers/sdk/times.ts) with its mainland rule: Spain is
 * Europe/Madrid and Portugal Europe/Lisbon although the Canary Islands and the Azores are an hour behind,
 * because their numbers cannot be told apart and most recipients live on the mainland. There, quiet hours
 * end at 07:00 local instead of 08:00 and begin at 20:00 instead of 21:00.
 * France and the Netherlands are their European zones; their overseas territories have their own ISO codes.
 */
export function timeZoneOfCountry(countryCode: string | null | undefined, region: string | null = null): string | null {
  return timezoneOf(countryCode, region, { mainland: true });
}
