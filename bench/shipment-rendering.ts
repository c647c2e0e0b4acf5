/**
 * What rendering one shipment costs on the calling thread (`node --import tsx bench/shipment-rendering.ts`): the
 * create body of the `mixed` scenario, stored as the service stores it, presented (`presentShipment`, its text
 * parsed) and written by the service's serializers into kept bytes (`keptRendering`), in v5 (a create's kept list
 * rendering) and in v5.2 (details); 1,000 shipments, each with other texts, rendered in turn. The median of
 * `RENDERING_ROUNDS` (11) rounds is printed, in µs a rendering, beside the same body's `JSON.parse` alone (the
 * baseline, part of each rendering). To compare two trees, run it in a checkout of each, alternately.
 */
import { keptRendering } from '../src/domain/shipments/rendered-shipment.js';
import { type PresenterLookups, presentShipment, type ShapeVersion } from '../src/domain/shipments/shipment.presenter.js';
import { shipmentSerializers } from '../src/http/shipment-serializers.js';
import { median, shipmentBody } from './fixtures.js';

const rounds = Number(process.env.RENDERING_ROUNDS ?? 11);
const perRound = 20_000;
const serializers = shipmentSerializers();
const lookups: PresenterLookups = { phaseName: () => null, carrier: () => null };
const rows = Array.from({ length: 1000 }, (_, i) => ({
  id: i + 1,
  account_id: 1,
  shipment_uuid: `0193a5c2-7d4e-7000-8000-${String(i).padStart(12, '0')}`,
  shipment_id: `rendering-${i}`,
  tracking_number: `JD0000${i}`,
  carrier_reference: null,
  carrier_id: null,
  order_row_id: null,
  status: 'pending',
  phase_key: null,
  source: 'api',
  shipment_type: 'outbound',
  tracking_page_reference: `ref${i}`,
  body: JSON.stringify(shipmentBody('rendering', i)),
  created_at: '2026-12-06T10:00:00.000Z',
  updated_at: '2026-12-06T10:00:00.000Z',
}));

const render = (version: ShapeVersion) => (i: number) => {
  const row = rows[i % rows.length] as unknown as Parameters<typeof presentShipment>[0]['row'];
  const aggregate = { row, order: null, events: [], documents: [], returns: null, collectionPoint: null };
  return keptRendering(version, serializers[version](presentShipment(aggregate, version, lookups))).json.length;
};
const ways = { parse: (i: number) => Object.keys(JSON.parse(rows[i % rows.length].body)).length, v5: render('v5'), 'v5.2': render('v5.2') };
const times: Record<keyof typeof ways, number[]> = { parse: [], v5: [], 'v5.2': [] };
let sink = 0;
for (let round = 0; round <= rounds; round++) {
  for (const way of Object.keys(ways) as Array<keyof typeof ways>) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < perRound; i++) sink += ways[way](i);
    // The first round warms up.
    if (round > 0) times[way].push(Number(process.hrtime.bigint() - started) / perRound / 1000);
  }
}
const f = (way: keyof typeof ways) => median(times[way]).toFixed(2);
console.log(`a shipment rendered: v5 ${f('v5')} µs, v5.2 ${f('v5.2')} µs (its body's JSON.parse alone: ${f('parse')} µs) [${sink}]`);
