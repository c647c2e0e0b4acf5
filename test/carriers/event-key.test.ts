import { describe, expect, it } from 'vitest';
import type { CarrierEvent } from '../../src/carriers/carrier.js';
import { eventKey } from '../../src/carriers/event-key.js';

const base: CarrierEvent = {
  event: 'Arrived at a carrier facility',
  event_key: 'arrived_at_facility',
  phase_key: 'in_transit',
  time: '2026-03-29T10:15:00+02:00',
  timezone: 'Europe/Berlin',
  location: {
    place: 'Hamburg, DE',
    full: null,
    formatted_address: null,
    location_type: null,
    line1: null,
    line2: null,
    line3: null,
    postal_code: null,
    city: 'Hamburg',
    state_or_province: null,
    region: null,
    country: null,
    country_code: 'DE',
    longitude: null,
    latitude: null,
    timezone: 'Europe/Berlin',
  },
  additional_info: { carrier_code: 'ARR', carrier_description: 'Arrived at sort centre' },
};

const key = (event: Partial<CarrierEvent>, carrier = 'sandbx', trackingNumber = 'WB2000002', legacy = true) =>
  eventKey(carrier, trackingNumber, { ...base, ...event }, undefined, { legacy });

describe('eventKey', () => {
  it('is a stable SHA-256 hex string', () => {
    expect(key({})).toMatch(/^[0-9a-f]{64}$/);
    expect(key({})).toBe(key({}));
  });

  it('ignores how the time is written, the description and the tracking number formatting', () => {
    expect(key({ time: '2026-03-29T08:15:00Z' })).toBe(key({}));
    expect(key({ time: '2026-03-29T10:15:00', timezone: 'Europe/Berlin' })).toBe(key({}));
    expect(key({ event: 'Arrived at hub', additional_info: { carrier_code: 'ARR', carrier_description: 'Reworded' } })).toBe(key({}));
    expect(key({}, 'sandbx', ' wb2 000 002 ')).toBe(key({}));
  });

  it('keys a time without offset by its text, so a better timezone later does not make the event new', () => {
    const berlin = key({ time: '2026-03-29T10:15:00', timezone: 'Europe/Berlin' }, 'dhlglb', 'X1', false);
    expect(key({ time: '2026-03-29T10:15:00', timezone: null }, 'dhlglb', 'X1', false)).toBe(berlin);
    expect(key({ time: ' 2026-03-29T10:15:00 ', timezone: 'Europe/Lisbon' }, 'dhlglb', 'X1', false)).toBe(berlin);
    expect(key({ time: '2026-03-29T10:16:00', timezone: 'Europe/Berlin' }, 'dhlglb', 'X1', false)).not.toBe(berlin);
    // With an offset, the instant still decides, however it is written.
    expect(key({ time: '2026-03-29T08:15:00Z' }, 'dhlglb', 'X1', false)).toBe(
      key({ time: '2026-03-29T10:15:00+02:00' }, 'dhlglb', 'X1', false),
    );
  });

  it('tells apart carrier, number, instant, precision, code and place', () => {
    const reference = key({});
    expect(key({}, 'othrcr')).not.toBe(reference);
    expect(key({}, 'sandbx', 'WB2000003')).not.toBe(reference);
    expect(key({ time: '2026-03-29T10:16:00+02:00' })).not.toBe(reference);
    expect(key({ additional_info: { carrier_code: 'DEP', carrier_description: '' } })).not.toBe(reference);
    expect(key({ location: { ...base.location!, place: 'Leipzig, DE' } })).not.toBe(reference);
    expect(key({ location: null })).not.toBe(reference);
    expect(key({ time: '2026-03-29', timezone: null })).not.toBe(key({ time: '2026-03-29T00:00:00Z', timezone: null }));
  });

  it('still keys an event whose time does not parse, by its text', () => {
    expect(key({ time: 'gestern' })).toBe(key({ time: ' gestern ' }));
    expect(key({ time: 'gestern' })).not.toBe(key({ time: 'heute' }));
  });
});
