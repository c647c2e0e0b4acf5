import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import type { ShipmentRow, ShownEventRow } from '../../src/db/repositories/shipments.repository.js';
import type { ShipmentJson } from '../../src/domain/shipments/rendered-shipment.js';
import { type PresenterLookups, presentShipment, type ShapeVersion } from '../../src/domain/shipments/shipment.presenter.js';
import { compileSerializer } from '../../src/http/serialization.js';
import { shipmentSerializers } from '../../src/http/shipment-serializers.js';
import { ShipmentV5, ShipmentV52 } from '../../src/schemas/shipment-output.schemas.js';

const lookups: PresenterLookups = {
  phaseName: (key) => (key === null ? null : `Phase ${key}`),
  carrier: () => null,
};
/** The serializers of the whole response schemas, as the reader used before events were written by parts. */
const whole: Record<ShapeVersion, (value: unknown) => string> = {
  v5: compileSerializer(ShipmentV5),
  'v5.2': compileSerializer(Type.Omit(ShipmentV52, ['pod_url'])),
};
const parts = shipmentSerializers();
/** The serializers by parts, their pieces joined. */
const byParts: Record<ShapeVersion, (value: Record<string, unknown>) => string> = {
  v5: (value) => joined(parts.v5(value)),
  'v5.2': (value) => joined(parts['v5.2'](value)),
};
const joined = ({ head, events, tail }: ShipmentJson) => `${head}${events}${tail}`;

const HUB = JSON.stringify({
  place: 'Singapore, SG',
  full: 'Changi Airfreight Centre, 115 Airport Cargo Road',
  line1: '115 Airport Cargo Road',
  line2: null,
  postal_code: '819466',
  country_code: 'SG',
  latitude: '1.3621',
  extra: 'not in the shape',
});
const texts = {
  locations: [
    null,
    '',
    'null',
    HUB,
    HUB,
    '{"full":"no place"}',
    '{"place":"Zoë \\"quoted\\" \\\\ \\u2028 東京 📦","city":"\\u0001"}',
    '{"place":12,"city":"x"}',
  ],
  infos: [
    '{}',
    '{}',
    '{"carrier_code":"ARR"}',
    '{"carrier_code":"ARR"}',
    '{"n":1.5e-7,"big":1e21,"neg":-0,"list":[1,"a",null,{"x":{}}]}',
    '{"__proto__":{"x":1},"2":"b","1":"a"}',
    '{"line\\nbreak":"é","":""}',
  ],
};

function event(i: number): ShownEventRow {
  return {
    id: i,
    shipment_row_id: 1,
    event: i % 5 === 0 ? 'Said "hello" \\ 📦' : `Event ${i}`,
    event_key: i % 3 === 0 ? null : 'in_transit',
    phase_key: i % 4 === 0 ? null : 'in_transit',
    time_text: `2026-11-14T04:${String(i % 60).padStart(2, '0')}:09+08:00`,
    timezone: i % 2 === 0 ? 'Asia/Singapore' : null,
    carrier_name: i % 7 === 0 ? null : 'Waybill Sandbox',
    location: texts.locations[i % texts.locations.length],
    additional_info: texts.infos[i % texts.infos.length],
  } as ShownEventRow;
}

function aggregate(events: number) {
  const row = {
    id: 1,
    shipment_uuid: '0193a3a4-0000-7000-8000-000000000001',
    shipment_id: 'S-1',
    tracking_number: 'WB1',
    carrier_reference: 'sandbox',
    carrier_id: 'sandbox',
    created_at: '2026-11-14T00:00:00.000Z',
    updated_at: '2026-11-14T00:00:00.000Z',
    source: 'api',
    status: 'in_transit',
    phase_key: 'in_transit',
    shipment_type: null,
    tracking_page_reference: 'tp',
    body: JSON.stringify({
      shipment_reference: 'R "1"',
      tags: ['a', 'b'],
      recipient_address: { first_name: 'Zoë', city: 'Amsterdam', country_code: 'NL' },
      line_items: [{ product_name: 'Tote', quantity: 2 }],
      additional_info: { warehouse: 'BER-1', nested: { list: [1, 2] } },
    }),
  } as unknown as ShipmentRow;
  return {
    row,
    order: null,
    events: Array.from({ length: events }, (_, i) => event(i)),
    documents: [],
    returns: null,
    collectionPoint: null,
  };
}

/** The serializers by parts write exactly what the whole schema's serializer writes. */
describe('shipment serializers by parts', () => {
  for (const version of ['v5', 'v5.2'] as const) {
    it(`write a ${version} shipment as the whole schema's serializer does, with no events or many`, () => {
      for (const events of [0, 1, 2, 30]) {
        const shipment = presentShipment(aggregate(events), version, lookups);
        const expected = whole[version](shipment);
        expect(byParts[version](shipment)).toBe(expected);
        // Again, with every location and additional_info written before: the same text.
        expect(byParts[version](presentShipment(aggregate(events), version, lookups))).toBe(expected);
        expect(JSON.parse(expected).all_events).toHaveLength(events);
        // The events' piece is the events alone: what the whole text holds between the array's brackets.
        const { head, events: written } = parts[version](shipment);
        expect(head.endsWith('"all_events":[')).toBe(true);
        expect(JSON.parse(`[${written}]`)).toEqual(JSON.parse(expected).all_events);
      }
    });
  }

  it('writes each event with its own stored texts, never another event’s', () => {
    const shipment = JSON.parse(byParts['v5.2'](presentShipment(aggregate(16), 'v5.2', lookups)));
    for (const [i, shown] of shipment.all_events.entries()) {
      const stored = event(i);
      // As JSON writes it (-0 is written 0).
      expect(shown.additional_info).toEqual(JSON.parse(JSON.stringify(JSON.parse(stored.additional_info))));
      const location = stored.location ? JSON.parse(stored.location) : null;
      expect(shown.location?.full ?? null).toBe(location?.full ?? null);
    }
  });
});
