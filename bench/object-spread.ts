/**
 * What an object spread costs on this Node (`node --import tsx bench/object-spread.ts`), in µs a call, the median
 * of 7 rounds: a shipment row's 18 inserted columns and its 18 defaults (6 of them the same columns) joined as
 * `{ ...defaults, ...row }` (what `storedShipment` was), as `Object.assign({}, defaults, row)`, and written out
 * member by member (what it is); beside them a spread that only overwrites members the first brings, and one
 * member added after a spread. On Node 20 a member that a second spread (or a literal after a spread) adds to the
 * object goes through a slow path, about a microsecond each; one it overwrites does not.
 */
import type { Insertable } from 'kysely';
import { storedShipment } from '../src/db/repositories/shipments.repository.js';
import type { ShipmentsTable } from '../src/db/schema.js';
import { median } from './fixtures.js';

const ROUNDS = 7;
const CALLS = 100_000;

const defaults = {
  tracking_number: null,
  carrier_reference: null,
  carrier_id: null,
  order_row_id: null,
  phase_key: null,
  shipment_type: null,
  tracking_started_at: null,
  next_poll_at: null,
  last_tracking_update_at: null,
  poll_deferred_since: null,
  tracking_digest: null,
  tracking_fingerprint: null,
  push_subscribed_until: null,
  push_retry_at: null,
  poll_failures: 0,
  pod_file: null,
  collection_point: null,
  webhook_sequence: 0,
};
type Row = Insertable<ShipmentsTable>;
const row = (i: number): Row => ({
  account_id: i,
  shipment_uuid: `u${i}`,
  shipment_id: `s${i}`,
  tracking_number: 'T',
  carrier_reference: 'c',
  carrier_id: 'sandbx',
  order_row_id: i,
  status: 'pending',
  phase_key: null,
  source: 'api',
  shipment_type: null,
  tracking_page_reference: 'r',
  body: '{}',
  created_at: 'n',
  updated_at: 'n',
  tracking_started_at: 'n',
  next_poll_at: 'n',
  last_tracking_update_at: 'n',
});

const ways: Array<[string, (r: Row) => unknown]> = [
  ['{ ...defaults, ...row }', (r) => ({ ...defaults, ...r })],
  ['Object.assign({}, defaults, row)', (r) => Object.assign({}, defaults, r)],
  ['written out member by member (storedShipment)', (r) => storedShipment(r, 0)],
  ['{ ...row, ...{ status } } (overwrites only)', (r) => ({ ...r, ...{ status: 'active' } })],
  ['{ ...row, id } (one member added)', (r) => ({ ...r, id: 1 })],
];
const times = new Map<string, number[]>(ways.map(([name]) => [name, []]));
let sink: unknown;
for (let round = 0; round <= ROUNDS; round++) {
  for (const [name, way] of ways) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i++) sink = way(row(i));
    const micros = Number(process.hrtime.bigint() - started) / CALLS / 1000;
    // The first round warms up.
    if (round > 0) times.get(name)?.push(micros);
  }
}
if (sink === undefined) throw new Error('nothing was made');
for (const [name, rounds] of times) console.log(`${name}: ${median(rounds).toFixed(3)} µs (with the row's own build)`);
