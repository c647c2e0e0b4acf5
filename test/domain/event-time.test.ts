import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareNewestFirst,
  type EventTime,
  isValidTimeZone,
  offsetAt,
  parseEventTime,
  toIso,
  toLocalDateTime,
} from '../../src/core/event-time.js';

function parsed(text: string, timezone?: string): EventTime {
  const result = parseEventTime(text, { timezone });
  if (!result.ok) throw new Error(`expected "${text}" to parse: ${result.reason}`);
  return result.time;
}

function utcOf(text: string, timezone?: string): string {
  return parsed(text, timezone).utc;
}

function reasonFor(text: string, timezone?: string): string {
  const result = parseEventTime(text, { timezone });
  if (result.ok) throw new Error(`expected "${text}" to be rejected`);
  return result.reason;
}

describe('parseEventTime: precision and original text', () => {
  it('reads a date alone as the start of that day in UTC', () => {
    expect(parsed('2026-03-29')).toEqual({
      text: '2026-03-29',
      precision: 'date',
      utc: '2026-03-29T00:00:00.000Z',
      offset: null,
      timezone: null,
    });
  });

  it('keeps the text as given and trims only surrounding whitespace', () => {
    expect(parsed('  2026-03-29T10:15  ').text).toBe('2026-03-29T10:15');
  });

  it('reads a local date-time without offset as UTC when no timezone is known', () => {
    const time = parsed('2026-03-29T10:15:00');
    expect(time).toMatchObject({ precision: 'datetime', utc: '2026-03-29T10:15:00.000Z', offset: null, timezone: null });
  });

  it('accepts minutes-only times and second fractions, truncating beyond milliseconds', () => {
    expect(utcOf('2026-03-29T10:15')).toBe('2026-03-29T10:15:00.000Z');
    expect(utcOf('2026-03-29T10:15:00.5')).toBe('2026-03-29T10:15:00.500Z');
    expect(utcOf('2026-03-29T10:15:00.123456789')).toBe('2026-03-29T10:15:00.123Z');
  });

  it('uses the offset in the text and normalizes how it is written', () => {
    expect(parsed('2026-03-29T10:15:00+02:00')).toMatchObject({ utc: '2026-03-29T08:15:00.000Z', offset: '+02:00' });
    expect(parsed('2026-03-29T10:15:00+0530')).toMatchObject({ utc: '2026-03-29T04:45:00.000Z', offset: '+05:30' });
    expect(parsed('2026-03-29T10:15:00-05')).toMatchObject({ utc: '2026-03-29T15:15:00.000Z', offset: '-05:00' });
    expect(parsed('2026-03-29T10:15:00Z')).toMatchObject({ utc: '2026-03-29T10:15:00.000Z', offset: 'Z' });
  });

  it('lets an explicit offset win over the timezone, and keeps the timezone', () => {
    expect(parsed('2026-03-29T10:15:00+00:00', 'Europe/Berlin')).toMatchObject({
      utc: '2026-03-29T10:15:00.000Z',
      offset: '+00:00',
      timezone: 'Europe/Berlin',
    });
  });

  it('accepts 29 February in leap years only', () => {
    expect(utcOf('2024-02-29')).toBe('2024-02-29T00:00:00.000Z');
    expect(reasonFor('2026-02-29')).toMatch(/calendar date/);
  });
});

describe('parseEventTime: timezones and DST', () => {
  it('places a local time in the timezone (Berlin, winter and summer)', () => {
    expect(utcOf('2026-01-15T10:15:00', 'Europe/Berlin')).toBe('2026-01-15T09:15:00.000Z');
    expect(utcOf('2026-07-15T10:15:00', 'Europe/Berlin')).toBe('2026-07-15T08:15:00.000Z');
  });

  it('crosses the Berlin spring change on 2026-03-29 (02:00 CET → 03:00 CEST)', () => {
    expect(utcOf('2026-03-29T01:30:00', 'Europe/Berlin')).toBe('2026-03-29T00:30:00.000Z');
    expect(utcOf('2026-03-29T03:30:00', 'Europe/Berlin')).toBe('2026-03-29T01:30:00.000Z');
    expect(utcOf('2026-03-29T10:15:00', 'Europe/Berlin')).toBe('2026-03-29T08:15:00.000Z');
  });

  it('moves a wall time skipped by the spring change forward by the gap', () => {
    expect(utcOf('2026-03-29T02:30:00', 'Europe/Berlin')).toBe('2026-03-29T01:30:00.000Z');
    expect(utcOf('2026-03-08T02:30:00', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z');
  });

  it('resolves a wall time repeated by the autumn change to its first occurrence', () => {
    expect(utcOf('2026-10-25T02:30:00', 'Europe/Berlin')).toBe('2026-10-25T00:30:00.000Z');
    expect(utcOf('2026-10-25T03:30:00', 'Europe/Berlin')).toBe('2026-10-25T02:30:00.000Z');
    expect(utcOf('2026-11-01T01:30:00', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
  });

  it('places a date alone at local midnight, with the offset of that day', () => {
    expect(utcOf('2026-03-29', 'Europe/Berlin')).toBe('2026-03-28T23:00:00.000Z');
    expect(utcOf('2026-03-30', 'Europe/Berlin')).toBe('2026-03-29T22:00:00.000Z');
    expect(parsed('2026-03-29', 'Europe/Berlin')).toMatchObject({ precision: 'date', timezone: 'Europe/Berlin' });
  });

  it('handles zones with non-hour offsets and southern-hemisphere DST', () => {
    expect(utcOf('2026-03-29T10:15:00', 'Asia/Kolkata')).toBe('2026-03-29T04:45:00.000Z');
    // Sydney leaves DST on 2026-04-05 at 03:00 AEDT → 02:00 AEST.
    expect(utcOf('2026-04-05T02:30:00', 'Australia/Sydney')).toBe('2026-04-04T15:30:00.000Z');
    expect(utcOf('2026-04-05T12:00:00', 'Australia/Sydney')).toBe('2026-04-05T02:00:00.000Z');
  });
});

describe('parseEventTime: rejection', () => {
  it.each([
    ['2026-02-30', /calendar date/],
    ['2026-04-31', /calendar date/],
    ['2026-13-01', /month/],
    ['2026-00-10', /month/],
    ['2026-03-00', /calendar date/],
    ['2026-03-29T24:00:00', /time of day/],
    ['2026-03-29T10:60:00', /time of day/],
    ['2026-03-29T10:15:60', /time of day/],
    ['2026-03-29T10:15:00+19:00', /offset/],
    ['2026-03-29T10:15:00+02:75', /offset/],
    ['2026-3-29', /not a date/],
    ['29.03.2026', /not a date/],
    ['2026-03-29 10:15:00', /not a date/],
    ['yesterday', /not a date/],
    ['', /not a date/],
  ])('rejects %s', (text, reason) => {
    expect(reasonFor(text)).toMatch(reason);
  });

  it('rejects an unknown timezone rather than guessing', () => {
    expect(reasonFor('2026-03-29T10:15:00', 'Mars/Olympus_Mons')).toMatch(/unknown timezone/);
  });

  it('rejects a value that is not a string', () => {
    expect(parseEventTime(20260329 as unknown as string)).toEqual({ ok: false, reason: 'time must be a string' });
  });
});

describe('isValidTimeZone', () => {
  it('knows IANA zones and UTC', () => {
    expect(isValidTimeZone('Europe/Berlin')).toBe(true);
    expect(isValidTimeZone('America/New_York')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
  });

  it('rejects unknown names and empty strings', () => {
    expect(isValidTimeZone('Europe/Atlantis')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
    expect(isValidTimeZone('   ')).toBe(false);
  });
});

describe('toLocalDateTime and offsetAt', () => {
  it('gives the wall clock and offset of an instant on both sides of a change', () => {
    expect(toLocalDateTime(Date.parse('2026-03-29T00:30:00Z'), 'Europe/Berlin')).toEqual({
      date: '2026-03-29',
      time: '01:30:00',
      offset: '+01:00',
    });
    expect(toLocalDateTime(new Date('2026-03-29T01:30:00Z'), 'Europe/Berlin')).toEqual({
      date: '2026-03-29',
      time: '03:30:00',
      offset: '+02:00',
    });
    expect(toLocalDateTime(Date.parse('2026-03-29T04:00:00Z'), 'America/Chicago')).toEqual({
      date: '2026-03-28',
      time: '23:00:00',
      offset: '-05:00',
    });
  });

  it('round-trips through parseEventTime', () => {
    const instant = Date.parse('2026-10-25T00:45:00Z');
    const local = toLocalDateTime(instant, 'Europe/Berlin');
    expect(utcOf(`${local.date}T${local.time}${local.offset}`)).toBe('2026-10-25T00:45:00.000Z');
  });

  it('reports offsets in minutes east of UTC', () => {
    expect(offsetAt(Date.parse('2026-07-01T00:00:00Z'), 'Europe/Berlin')).toBe(120);
    expect(offsetAt(Date.parse('2026-07-01T00:00:00Z'), 'America/New_York')).toBe(-240);
    expect(offsetAt(Date.parse('2026-07-01T00:00:00Z'), 'Asia/Kolkata')).toBe(330);
  });

  it("reads the same offset as the formatter's parts do, in every zone, from year 0000 to 9999", () => {
    // The offset read from each part of formatToParts, as offsetAt read it before it read the formatter's text.
    const formatters = new Map<string, Intl.DateTimeFormat>();
    const byParts = (instant: number, timeZone: string): number => {
      let formatter = formatters.get(timeZone);
      if (!formatter) {
        const twoDigits = Object.fromEntries(['month', 'day', 'hour', 'minute', 'second'].map((field) => [field, '2-digit']));
        formatter = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', ...twoDigits });
        formatters.set(timeZone, formatter);
      }
      const parts = formatter.formatToParts(new Date(instant));
      const field = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((part) => part.type === type)?.value);
      const wall = new Date(0);
      wall.setUTCFullYear(field('year'), field('month') - 1, field('day'));
      wall.setUTCHours(field('hour'), field('minute'), field('second'), 0);
      const wholeSecond = instant - (((instant % 1000) + 1000) % 1000);
      return Math.round((wall.getTime() - wholeSecond) / 60_000);
    };
    const zones = Intl.supportedValuesOf('timeZone');
    // 0000-01-01T00:00:00Z (Date.UTC reads years 0–99 as 1900–1999).
    const first = -62_167_219_200_000;
    const last = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.integer({ min: first, max: last }), (zone, instant) => {
        expect(offsetAt(instant, zone)).toBe(byParts(instant, zone));
      }),
      { numRuns: 3_000 },
    );
    // Every week and an hour over two centuries of a few zones with odd offsets (seconds in their local mean time,
    // half and quarter hours, a day skipped), and the first instants of the years 0000 and 0001.
    for (const zone of [
      'Europe/Amsterdam',
      'Africa/Monrovia',
      'Asia/Kathmandu',
      'Pacific/Apia',
      'Australia/Lord_Howe',
      'America/St_Johns',
    ]) {
      for (let instant = Date.UTC(1850, 0, 1); instant < Date.UTC(2040, 0, 1); instant += 7 * 86_400_000 + 3_600_000) {
        expect(offsetAt(instant, zone), `${zone} ${new Date(instant).toISOString()}`).toBe(byParts(instant, zone));
      }
    }
    for (const instant of [first, first + 86_399_999, -62_135_596_800_000, -62_135_596_800_001]) {
      for (const zone of ['UTC', 'Europe/Berlin', 'Pacific/Kiritimati', 'America/Los_Angeles']) {
        expect(offsetAt(instant, zone), `${zone} ${instant}`).toBe(byParts(instant, zone));
      }
    }
  });
});

describe('compareNewestFirst', () => {
  it('orders by instant, newest first, then a date-time before a date alone', () => {
    const times = [
      parsed('2026-03-28T23:30:00Z'),
      parsed('2026-03-29', 'Europe/Berlin'),
      parsed('2026-03-29T10:15:00', 'Europe/Berlin'),
      parsed('2026-03-29T00:00:00+01:00'),
    ];
    expect(times.sort(compareNewestFirst).map((time) => time.text)).toEqual([
      '2026-03-29T10:15:00',
      '2026-03-28T23:30:00Z',
      '2026-03-29T00:00:00+01:00',
      '2026-03-29',
    ]);
  });
});

describe('toIso', () => {
  it('writes every instant as toISOString does, the first time a day is seen and after', () => {
    fc.assert(
      fc.property(fc.integer({ min: -8_640_000_000_000_000, max: 8_640_000_000_000_000 }), (instant) => {
        const expected = new Date(instant).toISOString();
        expect(toIso(instant)).toBe(expected);
        expect(toIso(instant)).toBe(expected);
      }),
    );
    // Around the edges of the fast path and of days.
    for (const instant of [0, 1, 86_399_999, 86_400_000, 253_402_300_799_999, 253_402_300_800_000, -1, 1_795_000_000_123]) {
      expect(toIso(instant)).toBe(new Date(instant).toISOString());
      expect(toIso(instant)).toBe(new Date(instant).toISOString());
    }
    fc.assert(
      fc.property(fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }), (instant) => {
        expect(toIso(instant)).toBe(new Date(instant).toISOString());
      }),
      { numRuns: 2_000 },
    );
  });
});
