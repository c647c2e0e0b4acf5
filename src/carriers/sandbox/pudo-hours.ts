import { operatingDay } from '../../core/operating-hours.js';
import type { CutoffHours, OpeningHours, OperatingHoursCalc } from '../../core/pudo-location.js';
import { WEEKDAYS } from '../../core/pudo-location.js';
import type { SeededRandom } from './pudo-random.js';

/** Opening windows of one day, local `HH:MM` pairs; an empty list is a closed day. */
type DaySchedule = Array<[string, string]>;

export type PudoKind = 'parcel_shop' | 'parcel_locker' | 'post_office';

/** A week of opening windows, Monday first, typical of the kind of location. */
export function weeklySchedule(kind: PudoKind, random: SeededRandom): DaySchedule[] {
  if (kind === 'parcel_locker') return WEEKDAYS.map(() => [['00:00', '23:59']]);
  if (kind === 'post_office') {
    const close = random.pick(['17:30', '18:00', '18:30']);
    return WEEKDAYS.map((_, day) => (day < 5 ? [['08:00', close]] : day === 5 ? [['09:00', '12:30']] : []));
  }
  const open = random.pick(['07:00', '08:00', '09:00', '10:00']);
  const close = random.pick(['18:00', '19:00', '20:00', '22:00']);
  const lunchBreak = random.chance(0.25);
  const weekday: DaySchedule = lunchBreak
    ? [
        [open, '12:30'],
        ['14:00', close],
      ]
    : [[open, close]];
  const saturday: DaySchedule = random.chance(0.85) ? [[open, random.pick(['14:00', '16:00', '18:00'])]] : [];
  const sunday: DaySchedule = random.chance(0.2) ? [['10:00', '16:00']] : [];
  return [weekday, weekday, weekday, weekday, weekday, saturday, sunday];
}

/** `HH:MM` moved back by `minutes`. */
function earlier(time: string, minutes: number): string {
  const [hours, mins] = time.split(':').map(Number);
  const total = Math.max(0, hours * 60 + mins - minutes);
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

/** The hour fields of a PUDO location derived from one weekly schedule, so that they always agree. */
export function hoursFields(
  schedule: DaySchedule[],
  services: string[],
  timeZone: string,
  kind: PudoKind,
): { opening_hours: OpeningHours[]; cutoff_hours: CutoffHours[]; operating_hours_calc: OperatingHoursCalc[] } {
  const opening_hours: OpeningHours[] = [];
  const cutoff_hours: CutoffHours[] = [];
  const operating_hours_calc: OperatingHoursCalc[] = [];
  schedule.forEach((windows, index) => {
    const day = WEEKDAYS[index];
    if (windows.length === 0) return;
    for (const [open, close] of windows) opening_hours.push({ day_of_week: day, open_hour: open, close_hour: close });
    const lastClose = windows[windows.length - 1][1];
    // parcels handed over after the cut-off leave the next working day; lockers are emptied at 17:00
    const cutoff = kind === 'parcel_locker' ? '17:00' : earlier(lastClose, 60);
    for (const service of services) {
      const hasCutoff = service === 'drop_off' || service === 'returns';
      if (hasCutoff) cutoff_hours.push({ service, day_of_week: day, cutoff_at: cutoff });
      operating_hours_calc.push(operatingDay(service, day, timeZone, windows, hasCutoff ? cutoff : null));
    }
  });
  return { opening_hours, cutoff_hours, operating_hours_calc };
}
