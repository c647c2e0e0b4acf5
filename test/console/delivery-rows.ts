import type { Kysely } from 'kysely';
import { DeliveryFactsRepository } from '../../src/db/repositories/delivery-facts.repository.js';
import type { Database } from '../../src/db/schema.js';
import type { TestApp } from '../helpers/app.js';

/**
 * Delivery analytics rows written into the tables the learner keeps (`delivery_daily`, `delivery_daily_transits`
 * and their rollups through its repository, `delivery_facts` directly), so that a console test controls every
 * number it checks.
 */

export interface LaneSpec {
  carrier: string;
  service: string;
  origin: string;
  destination: string;
  prefix: string;
}

export interface DayCounts {
  shipments: number;
  accepted: number;
  first_attempts: number;
  first_attempt_successes: number;
  delivered: number;
  on_time: number;
  promised: number;
  exceptions?: number;
  returned_to_sender?: number;
}

export type TransitCount = [transit: number, timing: 'early' | 'on_time' | 'late' | 'none', shipments: number];

export function laneKey(lane: LaneSpec): string {
  return [lane.carrier, 'sandbx', lane.service, lane.origin, lane.destination, lane.prefix].join('|');
}

export async function accountIdOf(t: TestApp, accountUuid: string): Promise<number> {
  const row = await t.context.repos.db
    .selectFrom('accounts')
    .select('id')
    .where('account_uuid', '=', accountUuid)
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** One day of one lane: its counts and its transit histogram. */
export async function insertDay(
  db: Kysely<Database>,
  accountId: number,
  day: string,
  lane: LaneSpec,
  counts: DayCounts,
  transits: TransitCount[],
): Promise<void> {
  const lane_key = laneKey(lane);
  // Through the learner's write, so that the week and month rollups hold the day too.
  await new DeliveryFactsRepository(db).applyDaily(
    [
      {
        account_id: accountId,
        day,
        lane_key,
        carrier_reference: lane.carrier,
        carrier_id: 'sandbx',
        shipping_service: lane.service,
        origin_country: lane.origin,
        destination_country: lane.destination,
        destination_prefix: lane.prefix,
        exceptions: 0,
        returned_to_sender: 0,
        ...counts,
      },
    ],
    transits.map(([transit, timing, shipments]) => ({ account_id: accountId, day, lane_key, transit, timing, delta: shipments })),
  );
}

export interface FactSpec {
  shipmentId: string;
  lane: LaneSpec;
  day: string;
  promisedTo: string | null;
  firstAttemptDate?: string | null;
  returned?: boolean;
  lastScanAt?: string | null;
  /** Set on the row only: the shipment is not tracked for it. */
  trackingNumber?: string;
}

/** A shipment created through the API and its delivery facts, as the learner would keep them. */
export async function insertFact(t: TestApp, token: string, accountId: number, fact: FactSpec): Promise<string> {
  const created = await t.call(token, 'POST', '/v5/shipment/', { shipment_id: fact.shipmentId });
  if (created.statusCode !== 201 && created.statusCode !== 200) throw new Error(`shipment: ${created.body}`);
  const uuid = created.json().data.shipment_uuid as string;
  const db = t.context.repos.db;
  const shipment = await db.selectFrom('shipments').select('id').where('shipment_uuid', '=', uuid).executeTakeFirstOrThrow();
  if (fact.trackingNumber)
    await db.updateTable('shipments').set({ tracking_number: fact.trackingNumber }).where('id', '=', shipment.id).execute();
  const row = {
    shipment_row_id: Number(shipment.id),
    account_id: accountId,
    day: fact.day,
    lane_key: laneKey(fact.lane),
    carrier_reference: fact.lane.carrier,
    carrier_id: 'sandbx',
    shipping_service: fact.lane.service,
    origin_country: fact.lane.origin,
    destination_country: fact.lane.destination,
    destination_prefix: fact.lane.prefix,
    accepted_date: fact.day,
    first_attempt_date: fact.firstAttemptDate ?? null,
    first_attempt_phase: fact.firstAttemptDate ? 'delivered' : null,
    delivered: fact.firstAttemptDate ? 1 : 0,
    transit: null,
    promised_from: null,
    promised_to: fact.promisedTo,
    exception: 0,
    returned: fact.returned ? 1 : 0,
    sampled: 0,
    last_scan_at: fact.lastScanAt ?? null,
  };
  const { shipment_row_id: _id, ...rest } = row;
  await db
    .insertInto('delivery_facts')
    .values(row)
    .onConflict((oc) => oc.column('shipment_row_id').doUpdateSet(rest))
    .execute();
  return uuid;
}
