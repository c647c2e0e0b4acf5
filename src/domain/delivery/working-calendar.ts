import { addCalendarDays, dateOfDay, dayNumber, mondayOf, weekdayOf } from '../../core/calendar-date.js';

export { addCalendarDays, mondayOf, weekdayOf };

/**
 * A carrier's working days for one destination: its delivery weekdays less the destination's public
 * holidays. Dates are calendar dates `YYYY-MM-DD` (in the local time of the event they come from).
 */
export interface WorkingCalendar {
  /** Whether the carrier delivers on `date`. */
  isWorkingDay(date: string): boolean;
}

/**
 * Transit in working days: the working days `d` with `start < d ≤ end` (the acceptance day is not
 * counted; the first-attempt day is). 0 when `end` is not after `start`.
 */
export function workingDaysAfter(start: string, end: string, calendar: WorkingCalendar): number {
  const first = dayNumber(start);
  const last = dayNumber(end);
  let count = 0;
  for (let day = first + 1; day <= last; day++) if (calendar.isWorkingDay(dateOfDay(day))) count++;
  return count;
}

/**
 * The date of a transit of `days` working days from `start`: the `days`-th working day after it, or
 * `start` itself for 0. Looks at most two years ahead (a calendar without working days ends there).
 */
export function addWorkingDays(start: string, days: number, calendar: WorkingCalendar): string {
  let day = dayNumber(start);
  let left = days;
  const limit = day + 730;
  while (left > 0 && day < limit) {
    day++;
    if (calendar.isWorkingDay(dateOfDay(day))) left--;
  }
  return dateOfDay(day);
}
