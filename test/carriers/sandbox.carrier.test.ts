import { describe, expect, it } from 'vitest';
import type { CarrierEvent, TrackResult } from '../../src/carriers/carrier.js';
import { eventKey } from '../../src/carriers/event-key.js';
import { nextTrackingState, type TrackingState } from '../../src/carriers/phases.js';
import { CarrierRegistry, defaultCarrierRegistry } from '../../src/carriers/registry.js';
import { SandboxCarrier } from '../../src/carriers/sandbox/sandbox.carrier.js';
import { liveStepCount, scenarioOf } from '../../src/carriers/sandbox/sandbox.scenarios.js';
import { compareNewestFirst, type EventTime, isValidTimeZone, parseEventTime } from '../../src/core/event-time.js';

const FIRST_POLL = '2026-03-29T09:00:00.000Z';
const carrier = new SandboxCarrier();

async function trackOne(
  trackingNumber: string,
  attempt = 0,
  now = FIRST_POLL,
  settings: Record<string, unknown> = {},
): Promise<TrackResult> {
  const [result] = await carrier.track([{ tracking_number: trackingNumber, first_polled_at: FIRST_POLL, attempt }], settings, {
    now: new Date(now),
  });
  return result;
}

async function eventsOf(trackingNumber: string, attempt = 0, now = FIRST_POLL, settings = {}): Promise<CarrierEvent[]> {
  const result = await trackOne(trackingNumber, attempt, now, settings);
  if (result.status !== 'ok') throw new Error(`expected events for ${trackingNumber}, got ${result.status}`);
  return result.events;
}

function timeOf(event: CarrierEvent): EventTime {
  const parsed = parseEventTime(event.time, { timezone: event.timezone });
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.time;
}

/** Status and phase as the service derives them: the events newest first, folded oldest to newest. */
function finalState(events: CarrierEvent[]): TrackingState {
  const ordered = events.map((event, sequence) => ({ event, sequence, time: timeOf(event) }));
  ordered.sort((a, b) => compareNewestFirst(a.time, b.time) || b.sequence - a.sequence);
  return ordered
    .reverse()
    .reduce<TrackingState>((state, { event }) => nextTrackingState(state, event), { status: 'pending', phase_key: null });
}

describe('sandbox scenarios by prefix', () => {
  it.each([
    ['WB1000001', 2, 'pending', 'info_received', 'info_received'],
    ['WB2000002', 11, 'active', 'in_transit', 'departed_facility'],
    ['WB3000003', 12, 'active', 'out_for_delivery', 'out_for_delivery'],
    ['WB4000004', 8, 'delivered', 'delivered', 'delivered_to_pickup_point'],
    ['WB5000005', 13, 'return', 'return_to_sender', 'returned_to_sender'],
    ['WB6000006', 14, 'active', 'exception', 'address_issue'],
    ['WB9000009', 6, 'active', 'in_transit', 'departed_facility'],
  ])('%s: %i events, ends %s / %s', async (trackingNumber, count, status, phase, lastKey) => {
    const events = await eventsOf(trackingNumber, 2);
    expect(events).toHaveLength(count);
    expect(finalState(events)).toMatchObject({ status, phase_key: phase });
    expect(events.at(-1)?.event_key).toBe(lastKey);
  });

  it('ends every delivered history in the delivered phase, whatever the variation', async () => {
    for (const suffix of ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H']) {
      expect(finalState(await eventsOf(`WB4${suffix}77`)).phase_key).toBe('delivered');
    }
  });

  it('reports WB7 numbers and unknown prefixes as not found', async () => {
    for (const trackingNumber of ['WB7000007', 'WB0000001', 'XX1234567', '']) {
      expect(await trackOne(trackingNumber)).toEqual({ status: 'not_found', tracking_number: trackingNumber });
    }
  });

  it('matches prefixes regardless of case and spaces', () => {
    expect(scenarioOf(' wb4 123 ')).toBe('delivered');
    expect(scenarioOf('WB')).toBe('not_found');
  });

  it('keeps the unknown code of WB2 with the carrier text and null keys', async () => {
    const unknown = (await eventsOf('WB2000002')).filter((event) => event.event_key === null);
    expect(unknown).toHaveLength(1);
    expect(unknown[0]).toMatchObject({
      event: 'Transferred at cross-dock terminal',
      phase_key: null,
      additional_info: { carrier_code: 'XDK' },
    });
  });
});

describe('sandbox histories are realistic', () => {
  const fixedNumbers = ['WB1000001', 'WB2000002', 'WB3000003', 'WB4000004', 'WB5000005', 'WB6000006', 'WB2ABC', 'WB5XYZ'];

  it('are in order, oldest first, and all before the first poll', async () => {
    for (const trackingNumber of fixedNumbers) {
      const times = (await eventsOf(trackingNumber)).map(timeOf);
      const withTime = times.filter((time) => time.precision === 'datetime').map((time) => time.utc);
      expect(withTime).toEqual([...withTime].sort());
      for (const time of times) expect(time.utc < FIRST_POLL).toBe(true);
    }
  });

  it('mix precisions: date-only events and local times without offset', async () => {
    const events = await eventsOf('WB3000003');
    const times = events.map(timeOf);
    expect(times.some((time) => time.precision === 'date')).toBe(true);
    expect(times.some((time) => time.precision === 'datetime' && time.offset === null)).toBe(true);
    expect(times.some((time) => time.offset !== null)).toBe(true);
  });

  it('give places with country codes, coordinates and valid IANA timezones', async () => {
    for (const trackingNumber of fixedNumbers) {
      for (const event of await eventsOf(trackingNumber)) {
        if (!event.location) continue;
        expect(event.location.place).toMatch(/^.+, [A-Z]{2}$/);
        expect(Number.isFinite(Number(event.location.latitude))).toBe(true);
        expect(Number.isFinite(Number(event.location.longitude))).toBe(true);
        expect(isValidTimeZone(event.location.timezone ?? '')).toBe(true);
        expect(event.timezone).toBe(event.location.timezone);
      }
    }
  });

  it('give every event its own de-duplication key', async () => {
    for (const trackingNumber of fixedNumbers) {
      const events = await eventsOf(trackingNumber);
      const keys = new Set(events.map((event) => eventKey('sandbx', trackingNumber, event)));
      expect(keys.size).toBe(events.length);
    }
  });

  it('offer a delivery window while moving: dates in transit, hours when out for delivery, none at the end', async () => {
    const inTransit = await trackOne('WB2000002');
    const outForDelivery = await trackOne('WB3000003');
    const delivered = await trackOne('WB4000004');
    expect(inTransit).toMatchObject({ expected_delivery: { from: expect.stringMatching(/^\d{4}-\d\d-\d\d$/) } });
    expect(outForDelivery).toMatchObject({ expected_delivery: { from: expect.stringMatching(/T\d\d:\d\d:00[+-]\d\d:\d\d$/) } });
    expect(delivered).not.toHaveProperty('expected_delivery');
  });
});

describe('sandbox determinism', () => {
  it('tells the same story for the same number and first poll', async () => {
    for (const trackingNumber of ['WB2000002', 'WB5000005', 'WB8000008']) {
      expect(await eventsOf(trackingNumber, 0, '2026-03-29T09:03:00Z')).toEqual(await eventsOf(trackingNumber, 0, '2026-03-29T09:03:00Z'));
    }
  });

  it('varies routes and times between numbers', async () => {
    const stories = await Promise.all(['WB4A', 'WB4B', 'WB4C', 'WB4D', 'WB4E'].map((number) => eventsOf(number)));
    const signatures = new Set(stories.map((events) => events.map((event) => `${event.time}@${event.location?.place}`).join('|')));
    expect(signatures.size).toBe(5);
  });

  it('answers a batch in request order', async () => {
    const numbers = ['WB7000007', 'WB4000004', 'NOPE', 'WB1000001'];
    const results = await carrier.track(
      numbers.map((tracking_number) => ({ tracking_number, first_polled_at: FIRST_POLL, attempt: 0 })),
      {},
      { now: new Date(FIRST_POLL) },
    );
    expect(results.map((result) => [result.tracking_number, result.status])).toEqual([
      ['WB7000007', 'not_found'],
      ['WB4000004', 'ok'],
      ['NOPE', 'not_found'],
      ['WB1000001', 'ok'],
    ]);
  });
});

describe('WB8: live progression', () => {
  const atSecond = (seconds: number) => new Date(Date.parse(FIRST_POLL) + seconds * 1000).toISOString();

  it('adds one step every step_seconds from the first poll until delivered', async () => {
    const total = liveStepCount('WB8000008');
    expect((await eventsOf('WB8000008', 0, FIRST_POLL)).length).toBe(2);
    expect((await eventsOf('WB8000008', 0, atSecond(59))).length).toBe(2);
    expect((await eventsOf('WB8000008', 0, atSecond(60))).length).toBe(3);
    expect((await eventsOf('WB8000008', 0, atSecond(180))).length).toBe(5);
    const final = await eventsOf('WB8000008', 0, atSecond(3600));
    expect(final).toHaveLength(total);
    expect(finalState(final).status).toBe('delivered');
  });

  it('keeps earlier steps unchanged as new ones appear, each at or before now', async () => {
    const early = await eventsOf('WB8000008', 0, atSecond(120));
    const later = await eventsOf('WB8000008', 0, atSecond(300));
    expect(later.slice(0, early.length)).toEqual(early);
    for (const time of later.map(timeOf)) expect(time.utc <= atSecond(300)).toBe(true);
  });

  it('follows the step_seconds setting and shows nothing new before the first poll', async () => {
    expect((await eventsOf('WB8000008', 0, atSecond(600), { step_seconds: 300 })).length).toBe(4);
    expect((await eventsOf('WB8000008', 0, atSecond(-600))).length).toBe(2);
  });

  it('passes through info received, transit and out for delivery', async () => {
    const phases = new Set<string | null>();
    for (let step = 0; step < liveStepCount('WB8000008'); step++) {
      phases.add(finalState(await eventsOf('WB8000008', 0, atSecond(step * 60))).phase_key);
    }
    expect([...phases]).toEqual(['info_received', 'in_transit', 'out_for_delivery', 'delivered']);
  });

  it('rejects a step_seconds that is not a positive number as a final error', async () => {
    expect(await trackOne('WB8000008', 0, FIRST_POLL, { step_seconds: 0 })).toMatchObject({ status: 'error', retryable: false });
    expect(await trackOne('WB8000008', 0, FIRST_POLL, { step_seconds: '60' })).toMatchObject({ status: 'error', retryable: false });
  });
});

describe('WB9: transient faults', () => {
  it('times out on attempt 0, is throttled on attempt 1, answers from attempt 2', async () => {
    expect(await trackOne('WB9000009', 0)).toEqual({
      status: 'error',
      tracking_number: 'WB9000009',
      retryable: true,
      message: 'Sandbox carrier did not answer within 10000 ms',
    });
    expect(await trackOne('WB9000009', 1)).toMatchObject({ status: 'error', retryable: true, retry_after_seconds: 30 });
    for (const attempt of [2, 3, 7]) {
      expect(finalState(await eventsOf('WB9000009', attempt)).phase_key).toBe('in_transit');
    }
  });
});

describe('proof of delivery', () => {
  it('is announced for delivered shipments and downloads a PNG', async () => {
    const result = await trackOne('WB4000004');
    if (result.status !== 'ok' || !result.proof_of_delivery) throw new Error('expected a proof of delivery');
    expect(result.proof_of_delivery).toMatchObject({ reference: 'POD-WB4000004', content_type: 'image/png' });
    const file = await result.proof_of_delivery.fetch({});
    if (file.status !== 'ok') throw new Error(file.message);
    expect(file.content.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const again = await result.proof_of_delivery.fetch({});
    expect(again).toEqual(file);
  });

  it('is absent before delivery and appears when the live scenario delivers', async () => {
    for (const trackingNumber of ['WB2000002', 'WB3000003', 'WB5000005', 'WB6000006']) {
      expect(await trackOne(trackingNumber)).not.toHaveProperty('proof_of_delivery');
    }
    expect(await trackOne('WB8000008')).not.toHaveProperty('proof_of_delivery');
    expect(await trackOne('WB8000008', 0, '2026-03-29T11:00:00Z')).toHaveProperty('proof_of_delivery');
  });
});

describe('sandbox adapter contract', () => {
  it('is registered under its id: tracking, booking, pick-up points and pushed updates', () => {
    const registry = defaultCarrierRegistry();
    expect(registry.get('sandbx')?.record.name).toBe('Waybill Sandbox');
    expect(carrier.capabilities).toEqual({ tracking: true, booking: true, pudo: true, push: true });
    expect(() => new CarrierRegistry([carrier, new SandboxCarrier()])).toThrow(/registered twice/);
  });

  it('reports an unusable first_polled_at and an aborted call as data', async () => {
    const [bad] = await carrier.track([{ tracking_number: 'WB4000004', first_polled_at: 'soon', attempt: 0 }], {}, { now: new Date() });
    expect(bad).toMatchObject({ status: 'error', retryable: false });
    const controller = new AbortController();
    controller.abort();
    const [aborted] = await carrier.track(
      [{ tracking_number: 'WB4000004', first_polled_at: FIRST_POLL, attempt: 0 }],
      {},
      {
        now: new Date(),
        signal: controller.signal,
      },
    );
    expect(aborted).toMatchObject({ status: 'error', retryable: true });
  });
});
