import { describe, expect, it } from 'vitest';
import type { CarrierEvent, TrackResult } from '../../../src/carriers/carrier.js';
import { EVENT_KEYS, isEventKey } from '../../../src/carriers/phases.js';
import { TRK17T_CODES, TRK17T_DOCUMENTED, TRK17T_NO_MEANING, TRK17T_PHASE_ONLY } from '../../../src/carriers/trk17t/trk17t.codes.js';
import { carrierIdOf, TRK17T_COURIERS } from '../../../src/carriers/trk17t/trk17t.couriers.js';
import { mapEntry, mapTrackInfo, parseTrk17tPush, readEnvelope } from '../../../src/carriers/trk17t/trk17t.mapper.js';
import { entryOf, fixture, NUMBERS } from './trk17t.fixtures.js';

function ok(result: TrackResult | undefined) {
  if (result?.status !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(result)}`);
  return result;
}

const keys = (events: CarrierEvent[]) => events.map((e) => e.event_key);
const codes = (events: CarrierEvent[]) => events.map((e) => e.additional_info.carrier_code);

describe('trk17t code table', () => {
  it('handles every documented status and sub-status: mapped, phase only, or deliberately without meaning', () => {
    for (const code of [...TRK17T_DOCUMENTED.statuses, ...TRK17T_DOCUMENTED.subStatuses]) {
      const handled = Object.hasOwn(TRK17T_CODES, code) || Object.hasOwn(TRK17T_PHASE_ONLY, code) || TRK17T_NO_MEANING.includes(code);
      expect(handled, code).toBe(true);
    }
    expect(TRK17T_DOCUMENTED.statuses).toHaveLength(9);
    expect(TRK17T_DOCUMENTED.subStatuses).toHaveLength(30);
  });

  it('maps only to our event keys', () => {
    for (const [code, key] of Object.entries(TRK17T_CODES)) expect(isEventKey(key), code).toBe(true);
    expect(EVENT_KEYS).toContain('collected_by_recipient');
  });

  it('names a Waybill carrier for the keys of the carriers Waybill tracks itself', () => {
    expect(carrierIdOf('11031')).toBe('royalm');
    expect(carrierIdOf('100043')).toBe('inpost');
    expect(carrierIdOf('21051')).toBe('uspsus');
    expect(carrierIdOf('3011')).toBeNull();
    const ids = new Set(Object.values(TRK17T_COURIERS).map((c) => c.carrier_id));
    for (const id of [
      'upsglb',
      'dhlglb',
      'dhlpde',
      'fdxglb',
      'postnl',
      'lapost',
      'glsglb',
      'uspsus',
      'inpost',
      'postnd',
      'royalm',
      'dpdeur',
      'canpos',
      'auspos',
    ]) {
      expect(ids.has(id), id).toBe(true);
    }
  });
});

describe('trk17t mapper', () => {
  it('a Royal Mail parcel: events oldest first with keys, places and offsets, Royal Mail as the carrier of record', () => {
    const result = ok(mapEntry(NUMBERS.delivered, entryOf('royal-mail-delivered.json')));
    expect(keys(result.events)).toEqual(['info_received', 'picked_up', 'in_transit', 'out_for_delivery', 'delivered']);
    expect(codes(result.events)).toEqual([
      'InfoReceived',
      'InTransit_PickedUp',
      'InTransit_Other',
      'OutForDelivery_Other',
      'Delivered_Other',
    ]);
    const delivered = result.events[4];
    expect(delivered).toMatchObject({
      event: 'Delivered',
      phase_key: 'delivered',
      time: '2026-11-20T11:42:00+00:00',
      timezone: 'Europe/London',
      location: { place: 'Guildford, GB', city: 'Guildford', postal_code: 'GU1', country_code: 'GB' },
      additional_info: { carrier_code: 'Delivered_Other', carrier_description: 'Delivered', stage: 'Delivered' },
    });
    // A facility without a city is the place itself.
    expect(result.events[2].location?.place).toBe('JUBILEE MAIL CENTRE');
    expect(result.events[0].location).toBeNull();
    expect(result.carrier_of_record).toEqual({ name: 'Royal Mail', courier_code: '11031', carrier_id: 'royalm' });
    expect(result.expected_delivery).toBeUndefined();
  });

  it('an InPost locker: available for pickup at the locker, then collected by the recipient', () => {
    const result = ok(mapEntry(NUMBERS.inpost, entryOf('inpost-locker.json')));
    expect(keys(result.events)).toEqual(['info_received', 'picked_up', 'in_transit', 'available_for_pickup', 'collected_by_recipient']);
    expect(result.events[3].location).toMatchObject({
      place: 'Kraków, PL',
      postal_code: '30-001',
      location_type: 'pickup_point',
      latitude: '50.06',
      longitude: '19.94',
      timezone: 'Europe/Warsaw',
    });
    expect(result.events[3].additional_info).toMatchObject({ carrier_location: 'KRA01M, Kraków' });
    expect(result.events[4].additional_info.carrier_code).toBe('Delivered_Other');
    expect(result.carrier_of_record).toEqual({ name: 'InPost (PL)', courier_code: '100043', carrier_id: 'inpost' });
  });

  it('a China Post item delivered by USPS: both carriers’ events merged, customs, a UTC time, the delivery window', () => {
    const result = ok(mapEntry(NUMBERS.international, entryOf('international-cn-us.json')));
    expect(keys(result.events)).toEqual([
      'picked_up',
      'departed_facility',
      'arrived_at_facility',
      'in_customs',
      'customs_cleared',
      'in_transit',
      'out_for_delivery',
    ]);
    expect(result.events[0]).toMatchObject({ time: '2026-11-19T10:20:00+08:00', timezone: 'Asia/Shanghai' });
    expect(result.events[0].additional_info.courier_code).toBe('3011');
    expect(result.events[5]).toMatchObject({ time: '2026-11-23T11:02:00Z', timezone: 'America/New_York' });
    expect(result.events[5].location?.place).toBe('JAMAICA NY DISTRIBUTION CENTER');
    expect(result.events[6]).toMatchObject({ time: '2026-11-24T09:15:00-05:00', timezone: 'America/New_York' });
    expect(result.events[6].additional_info.courier_code).toBe('21051');
    expect(result.expected_delivery).toEqual({ from: '2026-11-24T00:00:00-05:00', to: '2026-11-26T00:00:00-05:00' });
    // The carrier the number is tracked with, named as 17TRACK names it: not one of Waybill's.
    expect(result.carrier_of_record).toEqual({ name: 'China Post', courier_code: '3011', carrier_id: null });
  });

  it('failed attempts, an exception without a key of ours, a return', () => {
    const result = ok(mapEntry(NUMBERS.exceptions, entryOf('exceptions-gb.json')));
    expect(keys(result.events)).toEqual([
      'info_received',
      'picked_up',
      'delivery_attempt_failed',
      'address_issue',
      null,
      'returning_to_sender',
      'returned_to_sender',
    ]);
    expect(result.events[4]).toMatchObject({
      event: 'Item held at the delivery office',
      phase_key: 'exception',
      additional_info: { carrier_code: 'Exception_Other' },
    });
  });

  it('codes it does not know keep the courier’s text; unreadable times are left out; a backwards window is dropped', () => {
    const unmapped: string[] = [];
    const eventKeyOf = (list: ReadonlyArray<string | null | undefined>) => {
      for (const code of list) if (code && Object.hasOwn(TRK17T_CODES, code)) return TRK17T_CODES[code];
      if (list[0]) unmapped.push(list[0]);
      return null;
    };
    const result = ok(mapEntry(NUMBERS.unmapped, entryOf('unmapped-us.json'), { eventKeyOf }));
    expect(result.events.map((e) => [e.additional_info.carrier_code, e.event_key, e.phase_key])).toEqual([
      ['unspecified', null, null],
      ['Arrival', 'arrived_at_facility', 'in_transit'],
      ['InTransit_Sorting', null, null],
      ['Expired_Other', null, null],
      ['Exception_Lost', 'lost', 'exception'],
    ]);
    expect(result.events[0]).toMatchObject({ time: '2026-11-05T09:00:00', timezone: 'America/Chicago', event: 'Shipping label created' });
    expect(result.events[2].event).toBe('Sorted at the hub');
    expect(unmapped).toEqual(['InTransit_Sorting']);
    expect(result.expected_delivery).toBeUndefined();
    expect(result.carrier_of_record).toMatchObject({ courier_code: '21051', carrier_id: 'uspsus' });
  });

  it('a registered number without events is not found for now', () => {
    expect(mapEntry(NUMBERS.pending, entryOf('pending.json'))).toEqual({ status: 'not_found', tracking_number: NUMBERS.pending });
    expect(mapEntry(NUMBERS.pending, { number: NUMBERS.pending })).toEqual({ status: 'not_found', tracking_number: NUMBERS.pending });
  });

  it('reads a gettrackinfo answer: results, numbers to register, refusals', () => {
    const body = fixture<{ data: { accepted: unknown[]; rejected: unknown[] } }>('royal-mail-delivered.json');
    body.data.rejected.push(...fixture<{ data: { rejected: unknown[] } }>('not-registered.json').data.rejected);
    body.data.rejected.push({ number: 'AB12', error: { code: -18010012, message: 'The format of AB12 is invalid.' } });
    body.data.rejected.push({ number: NUMBERS.pending, error: { code: -18019909, message: 'No tracking information at the moment.' } });
    const mapped = mapTrackInfo(body, ['rr 9000 1234 3gb', NUMBERS.fresh, 'AB12', NUMBERS.pending, 'UNASKED']);
    expect(mapped?.results.map((r) => [r.tracking_number, r.status])).toEqual([
      ['rr 9000 1234 3gb', 'ok'],
      [NUMBERS.pending, 'not_found'],
    ]);
    expect(mapped?.unregistered).toEqual([NUMBERS.fresh]);
    expect([...(mapped?.refused ?? new Map())]).toEqual([['AB12', { code: -18010012, message: 'The format of AB12 is invalid.' }]]);
    expect(mapTrackInfo('<html>', [NUMBERS.delivered])).toBeNull();
    expect(mapTrackInfo({ unrelated: true }, [NUMBERS.delivered])).toBeNull();
  });

  it('an entry as stored before is answered unchanged, unmapped', () => {
    const body = fixture('royal-mail-delivered.json');
    const seen: unknown[] = [];
    const mapped = mapTrackInfo(body, [NUMBERS.delivered], {
      unchanged: (_number, data) => {
        seen.push(data);
        return true;
      },
    });
    expect(mapped?.results).toEqual([{ status: 'unchanged', tracking_number: NUMBERS.delivered }]);
    expect(seen).toEqual([entryOf('royal-mail-delivered.json')]);
  });

  it('reads register and stoptrack answers by number', () => {
    const envelope = readEnvelope(fixture('register-partial.json'), [NUMBERS.fresh, NUMBERS.delivered, 'ZZ0000000000']);
    expect(envelope?.code).toBe(0);
    expect([...(envelope?.accepted.keys() ?? [])]).toEqual([NUMBERS.fresh]);
    expect(envelope?.rejected.get(NUMBERS.delivered)?.code).toBe(-18019901);
    expect(envelope?.rejected.get('ZZ0000000000')?.code).toBe(-18019903);
    expect(readEnvelope(fixture('invalid-key.json'), [NUMBERS.delivered])).toMatchObject({ code: -18010002 });
  });

  it('a TRACKING_UPDATED push maps like a poll; TRACKING_STOPPED is acknowledged with no update; a body without an event is refused', () => {
    const updated = parseTrk17tPush(fixture('push-updated.json'));
    expect(updated.ok).toBe(true);
    if (!updated.ok) return;
    expect(updated.updates).toHaveLength(1);
    const [update] = updated.updates;
    expect(update.tracking_number).toBe(NUMBERS.inpost);
    expect(keys(ok(update.result).events)).toEqual(['info_received', 'picked_up', 'in_transit', 'available_for_pickup']);
    expect(ok(update.result).carrier_of_record?.carrier_id).toBe('inpost');
    expect(parseTrk17tPush(fixture('push-stopped.json'))).toEqual({ ok: true, updates: [] });
    expect(parseTrk17tPush({ event: 'SOMETHING_NEW', data: {} })).toEqual({ ok: true, updates: [] });
    expect(parseTrk17tPush({ data: {} }).ok).toBe(false);
    expect(parseTrk17tPush({ event: 'TRACKING_UPDATED' }).ok).toBe(false);
    expect(parseTrk17tPush('nope').ok).toBe(false);
  });
});
