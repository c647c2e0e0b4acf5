import { describe, expect, it } from 'vitest';
import {
  CARRIER_DELIVERY_DAYS,
  calendarFor,
  deliveryDaysOf,
  EVERY_DAY,
  MONDAY_TO_FRIDAY,
  MONDAY_TO_SATURDAY,
} from '../../../src/domain/delivery/carrier-calendars.js';
import { workingDaysAfter } from '../../../src/domain/delivery/working-calendar.js';

// A week of December 2025: Monday 8 … Sunday 14.
const SATURDAY = '2025-12-13';
const SUNDAY = '2025-12-14';
const MONDAY = '2025-12-08';

describe('calendarFor', () => {
  it('takes the destination’s public holidays off the carrier’s weekdays', () => {
    expect(calendarFor('dhlpde', null, 'DE').isWorkingDay('2025-12-25')).toBe(false);
    expect(calendarFor('dhlpde', null, 'DE').isWorkingDay('2025-12-24')).toBe(true); // Heiligabend is a bank holiday
    expect(calendarFor('sandbx', null, 'DE').isWorkingDay('2025-10-03')).toBe(false);
    expect(calendarFor('sandbx', null, 'FR').isWorkingDay('2025-10-03')).toBe(true); // a German holiday only
    expect(calendarFor('uspsus', null, 'US').isWorkingDay('2025-11-27')).toBe(false); // Thanksgiving
  });

  it('delivers on Saturdays for DHL Paket and not for the sandbox carrier', () => {
    expect(calendarFor('dhlpde', null, 'DE').isWorkingDay(SATURDAY)).toBe(true);
    expect(calendarFor('sandbx', null, 'DE').isWorkingDay(SATURDAY)).toBe(false);
    expect(calendarFor('dhlpde', null, 'DE').isWorkingDay(SUNDAY)).toBe(false);
    expect(calendarFor('sandbx', null, 'DE').isWorkingDay(MONDAY)).toBe(true);
  });

  it('uses a service’s own days where the carrier documents them', () => {
    expect(calendarFor('uspsus', 'Priority Mail Express', 'US').isWorkingDay(SUNDAY)).toBe(true);
    expect(calendarFor('uspsus', 'Priority Mail', 'US').isWorkingDay(SUNDAY)).toBe(false);
    expect(calendarFor('uspsus', 'USPS Ground Advantage', 'US').isWorkingDay(SATURDAY)).toBe(true);
    expect(calendarFor('royalm', 'Tracked 24', 'GB').isWorkingDay(SATURDAY)).toBe(true);
    expect(calendarFor('royalm', 'Special Delivery Guaranteed by 1pm', 'GB').isWorkingDay(SATURDAY)).toBe(false);
    expect(calendarFor('upsglb', '03', 'US').isWorkingDay(SATURDAY)).toBe(false);
    expect(calendarFor('upsglb', 'UPS Next Day Air Saturday Delivery', 'US').isWorkingDay(SATURDAY)).toBe(true);
    expect(calendarFor('fdxglb', 'FedEx Home Delivery', 'US').isWorkingDay(SUNDAY)).toBe(true);
    expect(calendarFor('fdxglb', 'FedEx Ground', 'US').isWorkingDay(SATURDAY)).toBe(false);
    expect(calendarFor('dhlglb', 'parcel-de', 'DE').isWorkingDay(SATURDAY)).toBe(true);
    expect(calendarFor('dhlglb', 'express', 'DE').isWorkingDay(SATURDAY)).toBe(false);
    expect(calendarFor('dhlpde', 'V53WPAK', 'AT').isWorkingDay(SATURDAY)).toBe(false); // delivered by the partner abroad
    expect(calendarFor('dhlpde', 'V01PAK', 'DE').isWorkingDay(SATURDAY)).toBe(true);
  });

  it('gives an unknown carrier and the aggregators Monday–Friday', () => {
    for (const carrier of [null, 'nosuch', 'ship24', 'trk17t', 'toString', '__proto__']) {
      const calendar = calendarFor(carrier, null, 'NL');
      expect(calendar.isWorkingDay(MONDAY)).toBe(true);
      expect(calendar.isWorkingDay(SATURDAY)).toBe(false);
    }
  });

  it('has no holidays for an unknown destination, and knows a region’s', () => {
    expect(calendarFor('sandbx', null, null).isWorkingDay('2025-12-25')).toBe(true);
    expect(calendarFor('sandbx', null, 'XX').isWorkingDay('2025-12-25')).toBe(true);
    expect(calendarFor('dhlpde', null, 'DE', 'BY').isWorkingDay('2025-01-06')).toBe(false);
    expect(calendarFor('dhlpde', null, 'DE', 'BE').isWorkingDay('2025-01-06')).toBe(true);
  });

  it('refuses text that is not a date', () => {
    for (const calendar of [calendarFor('uspsus', 'Priority Mail Express', 'US'), calendarFor(null, null, null)]) {
      expect(calendar.isWorkingDay('')).toBe(false);
      expect(calendar.isWorkingDay('2025-02-31T10:00')).toBe(false);
    }
  });

  it('shares calendar objects between callers with the same days and holidays', () => {
    expect(calendarFor('dhlpde', null, 'DE')).toBe(calendarFor('dhlpde', null, 'DE'));
    expect(calendarFor('postnl', null, 'DE')).toBe(calendarFor('dhlpde', 'V01PAK', 'DE')); // both Monday–Saturday
    expect(calendarFor('sandbx', null, 'DE')).not.toBe(calendarFor('dhlpde', null, 'DE'));
  });

  it('counts DHL Paket’s transit over Christmas 2025: Saturday works, the holidays and Sunday do not', () => {
    // Accepted Tuesday 23 December; 24 (Wednesday) and 27 (Saturday) are working days; 25, 26, 28 are not.
    expect(workingDaysAfter('2025-12-23', '2025-12-29', calendarFor('dhlpde', null, 'DE'))).toBe(3);
    expect(workingDaysAfter('2025-12-23', '2025-12-29', calendarFor('sandbx', null, 'DE'))).toBe(2);
  });
});

describe('delivery days table', () => {
  it('has a source for every carrier and service', () => {
    const carriers = Object.keys(CARRIER_DELIVERY_DAYS).sort();
    expect(carriers).toEqual(
      [
        'auspos',
        'canpos',
        'dhlglb',
        'dhlpde',
        'dpdeur',
        'fdxglb',
        'glsglb',
        'inpost',
        'lapost',
        'postnd',
        'postnl',
        'royalm',
        'sandbx',
        'ship24',
        'trk17t',
        'upsglb',
        'uspsus',
      ].sort(),
    );
    for (const days of Object.values(CARRIER_DELIVERY_DAYS)) {
      expect(days.source.length).toBeGreaterThan(10);
      for (const service of days.services ?? []) expect(service.source.length).toBeGreaterThan(10);
    }
  });

  it('falls back from a service to its carrier', () => {
    expect(deliveryDaysOf('royalm', 'Tracked 48').mask).toBe(MONDAY_TO_SATURDAY);
    expect(deliveryDaysOf('royalm', null).mask).toBe(MONDAY_TO_SATURDAY);
    expect(deliveryDaysOf('inpost', 'Paczka w Weekend').mask).toBe(EVERY_DAY);
    expect(deliveryDaysOf('inpost', 'Paczkomat').mask).toBe(MONDAY_TO_FRIDAY);
  });
});
