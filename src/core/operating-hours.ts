import type { OperatingHoursCalc } from './pudo-location.js';

/** An opening window of a day, local `HH:MM` times. */
export type OpeningWindow = readonly [open: string, close: string];

/**
 * One service's hours on one day as `operating_hours_calc` holds them: the first two windows of the day
 * (a location with a lunch break has two) and the cut-off of the first, if any.
 */
export function operatingDay(
  service: string,
  day: string,
  timeZone: string,
  windows: readonly OpeningWindow[],
  cutoff: string | null = null,
): OperatingHoursCalc {
  return {
    service_name: service,
    operating_day: day,
    time_zone: timeZone,
    first_open_hours: `${windows[0][0]}-${windows[0][1]}`,
    second_open_hours: windows[1] ? `${windows[1][0]}-${windows[1][1]}` : null,
    first_cutoff: cutoff,
    second_cutoff: null,
  };
}
