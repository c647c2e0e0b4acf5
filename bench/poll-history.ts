/**
 * What a tracked shipment has stored before the carrier-polling scenario polls it (CARRIER_POLLING_HISTORY):
 *
 * - `stored` (the default): the events of its previous poll, that answer's digest and its expected delivery, as
 *   the poller left them. One shipment in `NEW_EVENT_EVERY` (4) had one event fewer then, so this poll brings
 *   it one new event; the rest bring nothing new. A shipment in transit is polled every 30 minutes over days
 *   and gets a scan or two a day, so one poll in four with a new event is more than most polls bring.
 * - `events`: the same events stored, but no digest, as a version before digests stored them: every poll offers
 *   all of its events to the insert, which finds them stored (the first poll of each shipment after an upgrade).
 * - `none`: nothing stored: every poll is the shipment's first, and stores its whole history.
 *
 * The previous answers are the carriers' own answers, mapped by the service's own code: one answer per carrier
 * and story, asked of the local carrier with a credential of its own before the run (`probe`), made into each
 * shipment's events with its own number's keys by `answerOf`; the sandbox's, asked of the sandbox for each
 * shipment as the poller asks it. In `stored` mode a shipment whose poll brings nothing new also keeps the
 * fingerprint of its carrier data (its carrier's `fingerprint`, bench/carriers/), as the poller leaves it; one that gets a new event
 * keeps none (its previous data differed, so no fingerprint it could keep would match).
 */

import { type Insertable, sql } from 'kysely';
import type { CarrierAdapter, CarrierEvent, ExpectedDelivery, TrackRequest } from '../src/carriers/carrier.js';
import { KnownAnswers, normalize } from '../src/carriers/sdk/known-answers.js';
import type { RawEntry } from '../src/carriers/sdk/split-answer.js';
import type { AppContext } from '../src/context.js';
import type { ShipmentsTable, TrackingEventsTable } from '../src/db/schema.js';
import type { NewEvent } from '../src/domain/shipments/event-recorder.js';
import { answerOf } from '../src/domain/shipments/keyed-answer.js';
import { writeVersionRows } from './shipment-versions.js';

export type HistoryMode = 'stored' | 'events' | 'none';

export function historyModeFrom(raw: string | undefined): HistoryMode {
  if (raw === undefined || raw === '') return 'stored';
  if (raw === 'stored' || raw === 'events' || raw === 'none') return raw;
  throw new Error(`CARRIER_POLLING_HISTORY: "${raw}" is none of stored, events, none`);
}

/** One shipment in this many gets a new event in the measured poll (CARRIER_POLLING_HISTORY=stored). */
export const NEW_EVENT_EVERY = 4;

/** What a shipment's previous poll stored: its events (with this shipment's keys), the answer's digest, the expected delivery. */
export interface PreviousPoll {
  /** Null: stored without a digest (CARRIER_POLLING_HISTORY=events). */
  digest: string | null;
  /** The fingerprint of the carrier data it was made from; null when none is kept (see the top of this file). */
  fingerprint: string | null;
  rows: NewEvent[];
  expectedDelivery: ExpectedDelivery | null;
}

/** A carrier's answer for one number, as the previous poll had it. */
export interface Answer {
  events: CarrierEvent[];
  expectedDelivery: ExpectedDelivery | null;
  /** The adapter's fingerprint of the carrier data (null for the sandbox, which makes none). */
  fingerprint: string | null;
}

/**
 * The previous poll of a shipment whose carrier now answers `answer` (events oldest first): all of its events,
 * or, when `oneNew`, all but the newest.
 */
export function previousPoll(
  adapter: CarrierAdapter,
  trackingNumber: string,
  answer: Answer,
  oneNew: boolean,
  mode: HistoryMode,
  fingerprint: () => string | null = () => null,
): PreviousPoll {
  const events = oneNew && answer.events.length > 1 ? answer.events.slice(0, -1) : answer.events;
  const keyed = answerOf(adapter, trackingNumber, events);
  return {
    digest: mode === 'stored' ? keyed.digest : null,
    fingerprint: mode === 'stored' && !oneNew ? fingerprint() : null,
    rows: keyed.rows(),
    expectedDelivery: answer.expectedDelivery,
  };
}

/**
 * The fingerprint an adapter makes of `data`, its carrier's data for `number` (a one-number body as received, a
 * batch answer's entry for the number as its adapter reads it: each carrier's `fingerprint` in bench/carriers/
 * says which); null without data.
 */
export function fingerprintOf(carrierId: string, number: string, data: Uint8Array | string | object | null): string | null {
  if (data === null) return null;
  const known = new KnownAnswers(carrierId, []);
  known.same(number, data);
  return known.fingerprintOf(number) ?? null;
}

/** The text of the entry of a batch answer whose own number is `number` (the first), as the adapter fingerprints it. */
export function entryText(body: string, entries: RawEntry[] | null, number: string): string | null {
  const entry = entries?.find((e) => e.number !== null && normalize(e.number) === normalize(number));
  return entry ? body.slice(entry.span.start, entry.span.end) : null;
}

/** What an adapter answers for each request, or an error naming the carrier (the seed must not be partial). */
export async function answerFor(adapter: CarrierAdapter, requests: TrackRequest[], settings: Record<string, unknown>): Promise<Answer[]> {
  const results = await adapter.track(requests, settings, { now: new Date() });
  return results.map((result, i) => {
    if (result.status !== 'ok') {
      throw new Error(`${adapter.record.id}: no answer for ${requests[i].tracking_number} to seed from (${JSON.stringify(result)})`);
    }
    return { events: result.events, expectedDelivery: result.expected_delivery ?? null, fingerprint: result.fingerprint ?? null };
  });
}

/**
 * Shipments written straight into the table, 500 per statement, 5,000 per transaction; with `previousOf`, each
 * chunk's previous polls are asked for first: their digests go into the rows and their events are stored with
 * them (in a transaction of their own). Returns how many events were stored.
 */
export async function insertShipments(
  context: AppContext,
  rows: ReadonlyArray<Insertable<ShipmentsTable>>,
  previousOf?: (chunk: ReadonlyArray<Insertable<ShipmentsTable>>) => Promise<PreviousPoll[]>,
): Promise<number> {
  const db = context.database.db;
  const createdAt = new Date().toISOString();
  let stored = 0;
  for (let from = 0; from < rows.length; from += 5_000) {
    const chunk = rows.slice(from, from + 5_000);
    const previous = previousOf ? await previousOf(chunk) : null;
    const written = previous ? chunk.map((row, i) => withPrevious(row, previous[i])) : chunk;
    const ids = new Map<string, number>();
    await db.transaction().execute(async (trx) => {
      for (let at = 0; at < written.length; at += 500) {
        const inserted = await trx
          .insertInto('shipments')
          .values(written.slice(at, at + 500))
          .returning(['id', 'tracking_number'])
          .execute();
        for (const row of inserted) ids.set(row.tracking_number ?? '', row.id);
      }
      await writeVersionRows(trx, [...ids.values()]);
    });
    if (!previous) continue;
    const events: Array<Insertable<TrackingEventsTable>> = [];
    chunk.forEach((row, i) => {
      const shipmentRowId = ids.get(row.tracking_number ?? '');
      if (shipmentRowId === undefined) throw new Error(`shipment ${row.tracking_number} was not inserted`);
      for (const event of previous[i].rows) events.push({ ...event, shipment_row_id: shipmentRowId, created_at: createdAt });
    });
    await context.repos.transaction(async (repos) => {
      stored += (await repos.events.insertNewOf(events)).length;
    });
  }
  return stored;
}

/** A shipment row as its previous poll left it: the answer's digest and fingerprint, and its expected delivery in the body (as the poller writes it). */
function withPrevious(row: Insertable<ShipmentsTable>, previous: PreviousPoll): Insertable<ShipmentsTable> {
  const kept = { tracking_digest: previous.digest, tracking_fingerprint: previous.fingerprint };
  if (!previous.expectedDelivery) return { ...row, ...kept };
  const body = JSON.parse(row.body);
  body.expected_delivery = { from: previous.expectedDelivery.from, to: previous.expectedDelivery.to };
  return { ...row, ...kept, body: JSON.stringify(body) };
}

/**
 * Waits until what the seed wrote is in the database file (SQLite: a checkpoint of the whole log, on the main
 * connection), so that copying the seed is not counted in the measured period as the checkpoint thread's work.
 */
export async function settleSeed(context: AppContext): Promise<void> {
  if (context.database.dialect !== 'sqlite') return;
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(context.database.db);
}
