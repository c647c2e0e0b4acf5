import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CarrierEvent, TrackResult } from '../../../src/carriers/carrier.js';
import { COUNTRY_OF_CODE, LAPOSTE_CODES, LAPOSTE_DOCUMENTED_CODES } from '../../../src/carriers/lapost/lapost.codes.js';
import { LAPOSTE_HOME_ZONE, mapSuiviBody, suiviEntries } from '../../../src/carriers/lapost/lapost.mapper.js';
import { EVENTS, isEventKey } from '../../../src/carriers/phases.js';
import { oldestFirst } from '../../../src/carriers/sdk/http-carrier.js';
import { KnownAnswers } from '../../../src/carriers/sdk/known-answers.js';
import { mapSplitAnswer } from '../../../src/carriers/sdk/split-answer.js';
import { parseEventTime } from '../../../src/core/event-time.js';
import { lapostFixture } from './lapost.fixtures.js';

/** The one result a fixture gives for its number, with events oldest first as the base class orders them. */
function mapOne(name: string, number: string): TrackResult {
  const results = mapSuiviBody(lapostFixture(name).body, [number]);
  expect(results).not.toBeNull();
  expect(results).toHaveLength(1);
  const result = (results as TrackResult[])[0];
  return result.status === 'ok' ? { ...result, events: oldestFirst(result.events) } : result;
}

function eventsOf(result: TrackResult): CarrierEvent[] {
  if (result.status !== 'ok') throw new Error(`expected ok, got ${result.status}`);
  return result.events;
}

const codes = (events: CarrierEvent[]) => events.map((e) => e.additional_info.carrier_code);
const keys = (events: CarrierEvent[]) => events.map((e) => e.event_key);

describe('La Poste code table', () => {
  it('lists every documented code, maps each to a standard key, and leaves out only DR2', () => {
    for (const code of LAPOSTE_DOCUMENTED_CODES) {
      if (code === 'DR2') expect(LAPOSTE_CODES).not.toHaveProperty(code);
      else expect(isEventKey(LAPOSTE_CODES[code]), code).toBe(true);
    }
    const plain = Object.keys(LAPOSTE_CODES).filter((code) => !code.includes(':'));
    expect(plain.every((code) => (LAPOSTE_DOCUMENTED_CODES as readonly string[]).includes(code))).toBe(true);
    expect(Object.keys(LAPOSTE_CODES).filter((code) => code.includes(':'))).toEqual(['DI1:AG1']);
    for (const code of Object.keys(COUNTRY_OF_CODE)) expect(LAPOSTE_DOCUMENTED_CODES).toContain(code);
  });

  it.each([
    ['DR1', 'info_received'],
    ['PC1', 'picked_up'],
    ['PC2', 'picked_up'],
    ['ET1', 'in_transit'],
    ['ET2', 'in_transit'],
    ['ET3', 'in_transit'],
    ['ET4', 'in_transit'],
    ['EP1', 'in_transit'],
    ['DO1', 'in_customs'],
    ['DO2', 'customs_cleared'],
    ['DO3', 'delayed'],
    ['ID0', 'in_customs'],
    ['PB1', 'delayed'],
    ['PB2', 'in_transit'],
    ['MD2', 'out_for_delivery'],
    ['ND1', 'delivery_attempt_failed'],
    ['AG1', 'available_for_pickup'],
    ['RE1', 'returning_to_sender'],
    ['DI0', 'delivered'],
    ['DI1', 'delivered'],
    ['DI2', 'returned_to_sender'],
    ['DI3', 'delayed'],
  ])('%s → %s', (code, key) => {
    expect(LAPOSTE_CODES[code]).toBe(key);
  });
});

describe('La Poste mapper: found shipments', () => {
  it('delivered Colissimo: codes oldest first, mapped keys and phases, times with their offsets, no place', () => {
    const result = mapOne('delivered', '6A90000000101');
    const events = eventsOf(result);
    expect(codes(events)).toEqual(['DR1', 'PC1', 'ET1', 'ET1', 'MD2', 'DI1']);
    expect(keys(events)).toEqual(['info_received', 'picked_up', 'in_transit', 'in_transit', 'out_for_delivery', 'delivered']);
    expect(events.at(-1)).toMatchObject({
      event: EVENTS.delivered.description,
      phase_key: 'delivered',
      time: '2026-11-18T11:05:00+01:00',
      timezone: null,
      location: null,
      additional_info: { carrier_code: 'DI1', carrier_description: "Put in the recipient's letter box.", order: 6 },
    });
  });

  it('isFinal: a finished journey reports no delivery estimate, whatever estimDate says', () => {
    const result = mapOne('delivered', '6A90000000101');
    expect(result.status === 'ok' && result.expected_delivery).toBe(undefined);
  });

  it('international: country-only places where the label names the country, customs, unknown codes kept as La Poste wrote them', () => {
    const events = eventsOf(mapOne('in-transit-international', 'CB900001014FR'));
    expect(codes(events)).toEqual(['DR1', 'PC2', 'ET2', 'ET4', 'DO1', 'DO2', 'ZZ9', 'ET3', 'EP1']);
    const byCode = Object.fromEntries(events.map((e) => [e.additional_info.carrier_code, e]));
    expect(byCode.PC2.location).toMatchObject({ place: 'France', country_code: 'FR', city: null, timezone: 'Europe/Paris' });
    expect(byCode.ET2.location?.country_code).toBe('FR');
    expect(byCode.ET3.location).toMatchObject({ place: 'Germany', country_code: 'DE', timezone: 'Europe/Berlin' });
    for (const code of ['DR1', 'ET4', 'DO1', 'DO2', 'EP1']) expect(byCode[code].location, code).toBeNull();
    expect(byCode.DO1.event_key).toBe('in_customs');
    expect(byCode.DO2.event_key).toBe('customs_cleared');
    expect(byCode.ZZ9).toMatchObject({
      event: 'A note about your item.',
      event_key: null,
      phase_key: null,
      additional_info: { carrier_code: 'ZZ9', carrier_description: 'A note about your item.' },
    });
  });

  it('a time without offset keeps its text and is placed in its country (ET3 in Germany)', () => {
    const et3 = eventsOf(mapOne('in-transit-international', 'CB900001014FR')).find((e) => e.additional_info.carrier_code === 'ET3');
    expect(et3).toMatchObject({ time: '2026-11-19T21:40:00', timezone: 'Europe/Berlin' });
    const parsed = parseEventTime(et3!.time, { timezone: et3!.timezone });
    expect(parsed.ok && parsed.time.utc).toBe('2026-11-19T20:40:00.000Z');
  });

  it('EDD: the estimHourMin–estimHourMax window when given', () => {
    const result = mapOne('in-transit-international', 'CB900001014FR');
    expect(result.status === 'ok' && result.expected_delivery).toEqual({
      from: '2026-11-21T09:00:00+01:00',
      to: '2026-11-21T13:00:00+01:00',
    });
  });

  it('pickup point: AG1 carries the removal point, and DI1 after AG1 is the recipient collecting (code kept DI1)', () => {
    const events = eventsOf(mapOne('pickup-point', '6C90000000303'));
    const ag1 = events.find((e) => e.additional_info.carrier_code === 'AG1');
    expect(ag1).toMatchObject({
      event_key: 'available_for_pickup',
      location: null,
      additional_info: { removal_point_name: 'Relais Les Tilleuls', removal_point_type: 'A2P' },
    });
    expect(events.at(-1)).toMatchObject({
      event_key: 'collected_by_recipient',
      phase_key: 'delivered',
      additional_info: { carrier_code: 'DI1' },
    });
  });

  it('problems, customs holds and failed attempts: each code family to its key; DR2 keeps its label', () => {
    const events = eventsOf(mapOne('exceptions', 'RR900004041FR'));
    expect(codes(events)).toEqual(['DR2', 'ID0', 'DO3', 'PB1', 'PB2', 'ND1', 'DI3']);
    expect(keys(events)).toEqual([null, 'in_customs', 'delayed', 'delayed', 'in_transit', 'delivery_attempt_failed', 'delayed']);
    expect(events.map((e) => e.phase_key)).toEqual([
      null,
      'in_transit',
      'exception',
      'exception',
      'in_transit',
      'failed_attempt',
      'exception',
    ]);
    expect(events[0].event).toBe('A problem while the sender prepared the item.');
  });

  it('returns: RE1 on the way back, DI2 delivered back to the sender', () => {
    const events = eventsOf(mapOne('returned', 'XY900003032FR'));
    expect(keys(events)).toEqual(['picked_up', 'out_for_delivery', 'delivery_attempt_failed', 'returning_to_sender', 'returned_to_sender']);
    expect(events.slice(-2).map((e) => e.phase_key)).toEqual(['return_to_sender', 'return_to_sender']);
  });

  it('DST end: events are ordered by instant, not by their text (02:40+02:00 before 02:10+01:00)', () => {
    const events = eventsOf(mapOne('dst-autumn', '6A90000000505'));
    expect(events.map((e) => e.time)).toEqual([
      '2026-10-24T09:00:00+02:00',
      '2026-10-24T18:00:00+02:00',
      '2026-10-25T02:40:00+02:00',
      '2026-10-25T02:10:00+01:00',
    ]);
    const instants = events.map((e) => {
      const parsed = parseEventTime(e.time, { timezone: e.timezone });
      return parsed.ok ? parsed.time.utc : '';
    });
    expect(instants.slice(2)).toEqual(['2026-10-25T00:40:00.000Z', '2026-10-25T01:10:00.000Z']);
  });

  it('times without offset: placed in La Poste’s zone; the DST gap, a date alone and a space-separated time all read', () => {
    const result = mapOne('times-without-offset', '6A90000000606');
    const events = eventsOf(result);
    expect(events.map((e) => [e.time, e.timezone])).toEqual([
      ['2026-03-28', LAPOSTE_HOME_ZONE],
      ['2026-03-28T18:00:00', LAPOSTE_HOME_ZONE],
      ['2026-03-29T02:30:00', LAPOSTE_HOME_ZONE],
      ['2026-03-29T08:00:00', LAPOSTE_HOME_ZONE],
    ]);
    // 02:30 does not exist in Paris that night: it is moved forward by the hour skipped (03:30 CEST).
    const gap = parseEventTime('2026-03-29T02:30:00', { timezone: LAPOSTE_HOME_ZONE });
    expect(gap.ok && gap.time.utc).toBe('2026-03-29T01:30:00.000Z');
    expect(result.status === 'ok' && result.expected_delivery).toEqual({ from: '2026-03-30', to: '2026-03-30' });
  });

  it('an empty event list is a found shipment without events; estimDate gives the day of the estimate', () => {
    const result = mapOne('empty-events', '5S90000000404');
    expect(result).toEqual({
      status: 'ok',
      tracking_number: '5S90000000404',
      events: [],
      expected_delivery: { from: '2026-11-25', to: '2026-11-25' },
    });
  });

  it('events without a code or a readable date are left out; others of the same answer are kept', () => {
    const body = {
      returnCode: 200,
      shipment: {
        idShip: '6A90000000101',
        event: [
          { code: 'MD2', label: 'x', date: 'yesterday' },
          { label: 'no code', date: '2026-11-18T07:48:00+01:00' },
          'not an event',
          { code: 'pc1', date: '2026-11-16T17:42:00+01:00' },
        ],
      },
    };
    const events = eventsOf(mapSuiviBody(body, ['6A90000000101'])![0]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ event_key: 'picked_up', additional_info: { carrier_code: 'PC1', carrier_description: 'PC1' } });
  });
});

describe('La Poste mapper: per-number answers', () => {
  it('a batch (207): found, not yet available (104), other 1xx (105) and La Poste timeouts (504) per number', () => {
    const numbers = ['6A90000000707', 'LA900002023FR', '6A90000000808', 'EE900005055FR'];
    const results = mapSuiviBody(lapostFixture('batch-partial').body, numbers)!;
    const byNumber = Object.fromEntries(results.map((r) => [r.tracking_number, r]));
    expect(byNumber['6A90000000707']).toMatchObject({ status: 'ok' });
    expect(keys(eventsOf(byNumber['6A90000000707']))).toEqual(['picked_up', 'info_received']);
    expect(byNumber['LA900002023FR']).toEqual({ status: 'not_found', tracking_number: 'LA900002023FR' });
    expect(byNumber['6A90000000808']).toEqual({ status: 'not_found', tracking_number: '6A90000000808' });
    expect(byNumber['EE900005055FR']).toMatchObject({ status: 'error', retryable: true });
    expect((byNumber['EE900005055FR'] as { message: string }).message).toContain('returnCode 504');
  });

  it('a single unknown number (HTTP 404, returnCode 104 or 404) is not found', () => {
    expect(mapOne('not-found', 'CA900006060FR')).toEqual({ status: 'not_found', tracking_number: 'CA900006060FR' });
    const body = { returnCode: 404, returnMessage: 'Unknown number.', idShip: 'CA900006060FR' };
    expect(mapSuiviBody(body, ['CA900006060FR'])).toEqual([{ status: 'not_found', tracking_number: 'CA900006060FR' }]);
  });

  it('a number La Poste calls invalid (400) is a non-retryable error quoting La Poste', () => {
    const result = mapOne('invalid-number', 'LB900007079FR');
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect((result as { message: string }).message).toContain('check how many characters');
  });

  it('matches envelopes to the numbers asked by idShip (case and spaces ignored) and drops numbers not asked', () => {
    const body = [
      { returnCode: 104, idShip: 'la900002023fr' },
      { returnCode: 104, idShip: '6A90000000999' },
      { returnCode: 200, shipment: { idShip: 'CB 900001014 FR', event: [] } },
    ];
    const results = mapSuiviBody(body, ['LA900002023FR', 'CB900001014FR'])!;
    expect(results.map((r) => [r.tracking_number, r.status])).toEqual([
      ['LA900002023FR', 'not_found'],
      ['CB900001014FR', 'ok'],
    ]);
  });

  it('a single envelope without idShip answers the only number asked', () => {
    expect(mapSuiviBody({ returnCode: 104 }, ['6A90000000101'])).toEqual([{ status: 'not_found', tracking_number: '6A90000000101' }]);
    expect(mapSuiviBody({ returnCode: 104 }, ['6A90000000101', '6A90000000202'])).toEqual([]);
  });

  it('a body without any La Poste envelope is unreadable (null): HTML, the gateway’s {code, message}, junk', () => {
    expect(mapSuiviBody(lapostFixture('malformed').body, ['6A90000000101'])).toBeNull();
    expect(mapSuiviBody(lapostFixture('not-an-envelope').body, ['6A90000000101'])).toBeNull();
    expect(mapSuiviBody(lapostFixture('unauthorized').body, ['6A90000000101'])).toBeNull();
    for (const junk of [undefined, null, 0, 'x', [], [1, 'a', null], { returnCode: 'abc' }]) {
      expect(mapSuiviBody(junk, ['6A90000000101'])).toBeNull();
    }
  });

  it('returnCode 200 without a shipment is a retryable error', () => {
    expect(mapSuiviBody({ returnCode: 200, idShip: '6A90000000101' }, ['6A90000000101'])).toEqual([
      expect.objectContaining({ status: 'error', retryable: true }),
    ]);
  });
});

describe('La Poste mapper: arbitrary shipments', () => {
  const anyText = fc.oneof(
    fc.string(),
    fc.constantFrom('DI1', 'AG1', 'ET3', 'PC2', 'FR', 'DE', 'XX', '2026-11-18T11:05:00+01:00', '2026-03-29T02:30:00'),
  );
  const anyValue = fc.oneof(anyText, fc.jsonValue({ maxDepth: 2 }));
  const event = fc.record({ code: anyValue, label: anyValue, date: anyValue, order: anyValue }, { requiredKeys: [] });
  const envelope = fc.record(
    {
      returnCode: fc.oneof(fc.constantFrom(200, 104, 400, 404, 504, '200'), anyValue),
      returnMessage: anyValue,
      idShip: fc.oneof(fc.constant('6A90000000101'), anyValue),
      shipment: fc.oneof(
        fc.record(
          {
            idShip: fc.oneof(fc.constant('6A90000000101'), anyValue),
            isFinal: anyValue,
            estimDate: anyValue,
            estimHourMin: anyValue,
            estimHourMax: anyValue,
            contextData: fc.oneof(
              fc.record({ originCountry: anyValue, arrivalCountry: anyValue, removalPoint: anyValue }, { requiredKeys: [] }),
              anyValue,
            ),
            event: fc.oneof(fc.array(fc.oneof(event, anyValue), { maxLength: 8 }), anyValue),
          },
          { requiredKeys: [] },
        ),
        anyValue,
      ),
    },
    { requiredKeys: [] },
  );

  it('never throws, and every event it keeps has a code and a time that parses', () => {
    fc.assert(
      fc.property(fc.oneof(envelope, fc.array(envelope, { maxLength: 4 })), (body) => {
        const results = mapSuiviBody(body, ['6A90000000101']) ?? [];
        for (const result of results) {
          if (result.status !== 'ok') continue;
          for (const e of result.events) {
            expect(e.additional_info.carrier_code.length).toBeGreaterThan(0);
            expect(parseEventTime(e.time, { timezone: e.timezone }).ok).toBe(true);
          }
          if (result.expected_delivery) {
            expect(parseEventTime(result.expected_delivery.from).ok).toBe(true);
            expect(parseEventTime(result.expected_delivery.to).ok).toBe(true);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('La Poste answers read entry by entry', () => {
  const envelope = (id: string) => ({
    returnCode: 200,
    shipment: { idShip: id, event: [{ code: 'DR1', date: '2026-05-01T10:00:00+02:00', label: 'Déclaratif réceptionné' }] },
  });
  const statuses = (results: TrackResult[] | null) => results?.map((r) => `${r.tracking_number}:${r.status}`) ?? null;
  const split = (text: string, numbers: string[]) =>
    statuses(
      mapSplitAnswer(
        text,
        suiviEntries(text),
        numbers,
        new KnownAnswers(
          'lapost',
          numbers.map((n) => ({ tracking_number: n })),
        ),
        mapSuiviBody,
      ),
    );

  it('reads a number from no entry that the mapper would pass over, and answers as the whole answer does', () => {
    for (const notEnvelope of [
      { idShip: '6A90000000101', code: 'BAD_REQUEST', message: 'not an envelope' },
      { idShip: '6A90000000101', returnCode: 'two hundred' },
      { idShip: '6A90000000101', shipment: 'no object' },
    ]) {
      const body = [notEnvelope, envelope('6A90000000101'), envelope('6A90000000202')];
      const numbers = ['6A90000000101', '6A90000000202'];
      const whole = statuses(mapSuiviBody(body, numbers));
      expect(whole).toEqual(['6A90000000101:ok', '6A90000000202:ok']);
      // No entry of its own for the first number: the answer is read whole, as it must be.
      expect(split(JSON.stringify(body), numbers) ?? whole).toEqual(whole);
    }
    const body = [{ idShip: '6A90000000101', returnCode: '104' }, envelope('6A90000000202')];
    expect(split(JSON.stringify(body), ['6A90000000101', '6A90000000202'])).toEqual(['6A90000000101:not_found', '6A90000000202:ok']);
  });

  it('reads no entry of an answer cut short or followed by more', () => {
    const text = JSON.stringify([envelope('6A90000000101')]);
    expect(split(text, ['6A90000000101'])).toEqual(['6A90000000101:ok']);
    expect(suiviEntries(`${text} garbage`)).toBeNull();
    expect(suiviEntries(`${text}]`)).toBeNull();
    expect(suiviEntries(text.slice(0, -1))).toBeNull();
  });
});
