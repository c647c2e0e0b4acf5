import { sleep } from './service-process.js';

/** What one POST came to after every retry its key needed. */
export interface Answer {
  status: number;
  body: any;
  /** The service said it answered from the stored response (`idempotent-replayed`). */
  replayed: boolean;
  /** Attempts that got no answer (connection refused, reset or cut by a kill). */
  interrupted: number;
}

export interface LoadStats {
  /** POSTs answered 2xx. */
  acknowledged: number;
  /** POSTs that needed at least one retry because an attempt got no answer. */
  interruptedRequests: number;
  /** Of those, answered from the stored response of an attempt that had committed before the kill. */
  replayedAfterCrash: number;
  /** Of those, run again because the first attempt died before its answer was stored, refused as already done. */
  rerunRefused: number;
  /** Retries answered 409 "still being processed" while the first attempt's claim was still leased. */
  inFlightWaits: number;
  /** Answers with Retry-After (a booking a killed process left half-done, until it goes stale). */
  retryAfterWaits: number;
}

/**
 * A merchant client that never gives up on a write: every POST carries an Idempotency-Key and is retried with
 * the same key until the service answers (through kills and restarts).
 */
export class RetryingClient {
  readonly stats: LoadStats = {
    acknowledged: 0,
    interruptedRequests: 0,
    replayedAfterCrash: 0,
    rerunRefused: 0,
    inFlightWaits: 0,
    retryAfterWaits: 0,
  };

  constructor(
    private readonly base: string,
    private readonly token: string,
  ) {}

  async post(url: string, body: unknown, key: string): Promise<Answer> {
    let interrupted = 0;
    for (;;) {
      let res: Response;
      let text: string;
      try {
        res = await fetch(`${this.base}${url}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
        });
        text = await res.text();
      } catch {
        interrupted++;
        await sleep(100);
        continue;
      }
      const json = text ? JSON.parse(text) : null;
      if (res.status === 409 && json?.api_response === '4090' && /still being processed/.test(json.message)) {
        this.stats.inFlightWaits++;
        await sleep(250);
        continue;
      }
      const retryAfter = res.headers.get('retry-after');
      if (retryAfter !== null && res.status >= 400) {
        this.stats.retryAfterWaits++;
        await sleep(Math.min(1000, Number(retryAfter) * 1000));
        continue;
      }
      const replayed = res.headers.get('idempotent-replayed') === 'true';
      if (interrupted > 0) {
        this.stats.interruptedRequests++;
        if (replayed) this.stats.replayedAfterCrash++;
      }
      if (res.status >= 200 && res.status < 300) this.stats.acknowledged++;
      return { status: res.status, body: json, replayed, interrupted };
    }
  }

  /** A GET, retried while the service is down. */
  async get(url: string, query: Record<string, string> = {}): Promise<{ status: number; body: any }> {
    const qs = new URLSearchParams(query).toString();
    for (;;) {
      try {
        const res = await fetch(`${this.base}${url}${qs ? `?${qs}` : ''}`, {
          headers: { authorization: `Bearer ${this.token}` },
          signal: AbortSignal.timeout(30_000),
        });
        return { status: res.status, body: await res.json() };
      } catch {
        await sleep(100);
      }
    }
  }
}

/** One shipment the load wrote, and what it must look like in the end. */
export interface ShipmentRecord {
  kind: 'plain' | 'return' | 'booked';
  shipmentId: string;
  uuid: string;
  /** Whether the write that created it was answered 2xx (otherwise it was re-run and refused as already done). */
  acknowledged: boolean;
  /** The last acknowledged `shipment_reference`. */
  reference: string;
  /** Manual events acknowledged on it (each must be there exactly once). */
  events: string[];
  trackingNumber: string | null;
  returnUuid?: string;
  documentUuid?: string;
}

export class Ledger {
  readonly shipments: ShipmentRecord[] = [];
  readonly failures: string[] = [];
  ops = { create: 0, update: 0, event: 0, return: 0, booking: 0 };
}

/** A small seeded generator, so a failing run can be repeated with its seed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const recipient = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  line1: 'Keizersgracht 1',
  city: 'Amsterdam',
  postal_code: '1015 CJ',
  country_code: 'NL',
};
const sender = { company: 'Acme Warehouse', line1: 'Lagerstraße 5', city: 'Hamburg', postal_code: '20095', country_code: 'DE' };

/**
 * One client lane: creates, updates, manual events, returns and bookings in a random order, one at a time,
 * each retried with its key until answered, until `stopped()` says so.
 */
export async function runLane(
  lane: number,
  tag: string,
  random: () => number,
  client: RetryingClient,
  ledger: Ledger,
  stopped: () => boolean,
): Promise<void> {
  const own: ShipmentRecord[] = [];
  const pick = () => own.filter((r) => r.kind !== 'return')[Math.floor(random() * own.filter((r) => r.kind !== 'return').length)];
  const unexpected = (what: string, answer: Answer) =>
    ledger.failures.push(`${what}: ${answer.status} ${JSON.stringify(answer.body)} (after ${answer.interrupted} interrupted attempts)`);
  /** A create answered "already exists" is only right when an attempt was cut off: the first one did the work. */
  const refusedAsDone = (answer: Answer, pattern: RegExp) =>
    answer.interrupted > 0 && answer.status >= 400 && answer.status < 500 && pattern.test(JSON.stringify(answer.body));
  const lookUp = async (shipmentId: string) => (await client.get('/v5-2-0/shipment/details/', { shipment_id: shipmentId })).body.data;

  for (let n = 0; !stopped(); n++) {
    const id = `${tag}-${lane}-${n}`;
    const roll = own.length === 0 ? 0 : random();
    if (roll < 0.35) {
      ledger.ops.create++;
      const shipmentId = `S-${id}`;
      const trackingNumber = `WB4${String(lane * 100_000 + n).padStart(9, '0')}`;
      const answer = await client.post(
        '/v5/shipment/',
        {
          shipment_id: shipmentId,
          shipment_reference: `R-${id}`,
          tracking_number: trackingNumber,
          carrier_reference: 'sb',
          recipient_address: recipient,
          note: `created by lane ${lane}`,
        },
        `create-${id}`,
      );
      let uuid: string | undefined;
      if (answer.status === 200) uuid = answer.body.data.shipment_uuid;
      else if (refusedAsDone(answer, /already exists/)) {
        client.stats.rerunRefused++;
        uuid = (await lookUp(shipmentId))?.shipment_uuid;
      } else unexpected(`create ${shipmentId}`, answer);
      if (uuid) {
        const record: ShipmentRecord = {
          kind: 'plain',
          shipmentId,
          uuid,
          acknowledged: answer.status === 200,
          reference: `R-${id}`,
          events: [],
          trackingNumber,
        };
        own.push(record);
        ledger.shipments.push(record);
      }
    } else if (roll < 0.55) {
      ledger.ops.update++;
      const record = pick();
      const reference = `U-${id}`;
      const answer = await client.post(
        `/v5/shipment/update/?shipment_uuid=${record.uuid}`,
        { shipment_reference: reference, note: `updated by lane ${lane}, op ${n}` },
        `update-${id}`,
      );
      if (answer.status === 200) record.reference = reference;
      else unexpected(`update ${record.shipmentId}`, answer);
    } else if (roll < 0.75) {
      ledger.ops.event++;
      const record = pick();
      const event = `Manual scan ${id}`;
      const answer = await client.post(
        '/v5/events/create/',
        { shipment_uuid: record.uuid, events: [{ event, time: new Date(Date.now() - 3_600_000).toISOString() }] },
        `event-${id}`,
      );
      if (answer.status === 200) record.events.push(event);
      else unexpected(`event on ${record.shipmentId}`, answer);
    } else if (roll < 0.87) {
      ledger.ops.return++;
      const shipmentId = `RET-${id}`;
      const answer = await client.post(
        '/v5/return/',
        {
          return_ticket: { return_id: `RMA-${id}`, comment: 'Too small', refund_method: 'original_payment', return_method: 'drop_off' },
          shipment: {
            shipment_id: shipmentId,
            line_items: [
              { product_name: 'Shirt', product_id: 'P-1', quantity: 2, product_cost: 20, currency_code: 'EUR', return_reason: 'Too small' },
            ],
            to_address: { company: 'Acme returns', city: 'Berlin', country_code: 'DE' },
            from_address: { first_name: 'Grace', city: 'Paris', country: 'France' },
          },
        },
        `return-${id}`,
      );
      let found: { uuid: string; returnUuid: string } | undefined;
      if (answer.status === 200) {
        found = { uuid: answer.body.data.shipment.shipment_uuid, returnUuid: answer.body.data.return_ticket.return_uuid };
      } else if (refusedAsDone(answer, /already/)) {
        client.stats.rerunRefused++;
        const details = await lookUp(shipmentId);
        if (details) found = { uuid: details.shipment_uuid, returnUuid: details.returns?.id };
      } else unexpected(`return ${shipmentId}`, answer);
      if (found) {
        const record: ShipmentRecord = {
          kind: 'return',
          shipmentId,
          uuid: found.uuid,
          returnUuid: found.returnUuid,
          acknowledged: answer.status === 200,
          reference: '',
          events: [],
          trackingNumber: null,
        };
        own.push(record);
        ledger.shipments.push(record);
      }
    } else {
      ledger.ops.booking++;
      const shipmentId = `B-${id}`;
      const created = await client.post(
        '/v5/shipment/',
        {
          shipment_id: shipmentId,
          shipment_reference: `R-${id}`,
          sender_address: sender,
          recipient_address: recipient,
          weight: { amount: 1250, unit: 'g' },
          shipping_service: 'sandbox_delayed_label',
        },
        `create-${id}`,
      );
      let uuid: string | undefined;
      if (created.status === 200) uuid = created.body.data.shipment_uuid;
      else if (refusedAsDone(created, /already exists/)) {
        client.stats.rerunRefused++;
        uuid = (await lookUp(shipmentId))?.shipment_uuid;
      } else unexpected(`create ${shipmentId}`, created);
      if (!uuid) continue;
      const record: ShipmentRecord = {
        kind: 'booked',
        shipmentId,
        uuid,
        acknowledged: created.status === 200,
        reference: `R-${id}`,
        events: [],
        trackingNumber: null,
      };
      own.push(record);
      ledger.shipments.push(record);
      const booked = await client.post('/v5/booking/', { shipment_uuid: uuid, carrier_reference: 'sb' }, `book-${id}`);
      if (booked.status === 200 || booked.status === 299) {
        record.trackingNumber = booked.body.data.tracking_number;
        record.documentUuid = booked.body.data.documents[0]?.document_uuid;
      } else if (refusedAsDone(booked, /already booked/)) {
        client.stats.rerunRefused++;
        const details = await lookUp(shipmentId);
        record.trackingNumber = details?.tracking_number ?? null;
        record.documentUuid = details?.documents?.[0]?.document_uuid;
      } else unexpected(`booking ${shipmentId}`, booked);
    }
  }
}
